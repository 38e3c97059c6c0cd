"""The pit monitor: a live floor view in the browser, a recorder and the rating report.

It runs on a podium PC, not on a table's Pi (it is not part of what the daemon
ships): ``pit-monitor serve`` follows many tables and serves the floor page,
``pit-monitor record`` stores every event of every table in SQLite or
PostgreSQL, ``pit-monitor report`` rates the players from what was stored.
See ``docs/pit-monitor.md`` (a pit boss's guide) and ``docs/pit-monitor-reference.md``.

The command (``cli.py``) stands on the parts, each a package that imports only those below it
(the ``monitor`` contract in pyproject.toml): ``pages`` (the web app and its static files),
``reports`` and ``collector.py`` (the garbage collector set for a big floor); ``models`` (what the
monitor knows of the floor); ``stores`` (the database, the recorder) and ``apart`` (the games'
math off the loop).
"""
