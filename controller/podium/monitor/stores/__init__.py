"""The monitor's database (SQLite, or PostgreSQL) and the recorder that fills it.

The events as published (``events.py``: :class:`~controller.podium.monitor.stores.events.Store`,
one row per event), the ratings and the edges they are worked out with (``ratings.py``), what
``serve --db`` keeps of its own (``kept.py``: the books, the events game protection reads), and
``pit-monitor record`` (``recorder.py``: every event of every table stored, each once).
"""
