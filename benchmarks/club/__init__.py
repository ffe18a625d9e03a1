"""The club benchmarks' pieces (benchmarks/club_load.py and club_outage.py are the commands):

- `setup`: the processes of a club night: PostgreSQL, the club server, the tables
  registered, the options both commands take;
- `roles`: the role processes (`python benchmarks/club_load.py tables|phones SPEC`), their
  clock and how they talk to the parent;
- `tables`: role `tables`, many tables' stores and the product's forwarders in one process;
- `phones`: role `phones`, phones and big screens on the club's live streams;
- `system`: what the processes cost (CPU from /proc, py-spy);
- `figures`: club_load's figures, joined from the roles' records, and its summary.

The scripts run with benchmarks/ on the path (as `python benchmarks/club_load.py`), so this
package is `club` and the server launcher `spawn`.
"""
