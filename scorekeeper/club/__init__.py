"""Club night: many tables, one league.

Each table scores on its own Pi and forwards its games' events to the club server
(`forwarder`, `outbox`), and offers the club's players at a new game (`roster`); the club
server replays the events into its own store (`sync`), whose tables and tokens `tables`
keeps. The league is computed from those games (`league*`).
"""
