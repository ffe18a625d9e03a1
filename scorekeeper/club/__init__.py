"""Club night: many tables, one league.

Each table scores on its own Pi and forwards its games' events to the club server
(`forwarder`, `outbox`); the club server replays them into its own store (`sync`), whose
tables and tokens `tables` keeps. The league is computed from those games (`league*`).
"""
