"""``pit-monitor report``: the figures worked out from the stored events, one module per ``--by``.

``table.py`` (the default: per table and per seat), ``player.py`` (each rated player), ``shift.py``
(per shift and pit), ``books.py`` (``--by dealer``, and each table's counts), ``protection.py``
(game protection). Each reads the store's rows and writes text, CSV or JSON.
"""
