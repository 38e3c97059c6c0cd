"""The applications of the podium PC, beside each other on the shared web layer (``controller/web``) and
the pit client (``controller/follow``): the pit monitor with its recorder and reports (:mod:`.monitor`,
the ``pit-monitor`` command), game protection (:mod:`.protection`) and rated play (:mod:`.ratings`).

None of it runs on a table's Pi, so none of it is in the daemon's integrity manifest. The dealer screen,
the other application on the pit stream, runs on the Pi beside the daemon (``controller/screen``).
"""
