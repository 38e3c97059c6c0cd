"""The pit monitor: a live floor view in the browser, a recorder and the rating report.

It runs on a podium PC, not on a table's Pi (it is not part of what the daemon
ships): ``pit-monitor serve`` follows many tables and serves the floor page,
``pit-monitor record`` stores every event of every table in SQLite or
PostgreSQL, ``pit-monitor report`` rates the players from what was stored.
See ``docs/pit-monitor.md``.
"""
