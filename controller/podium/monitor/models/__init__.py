"""The monitor's models: what it knows of the floor, in memory, fed by the followers.

Each table's model and the floor of them (``floor.py``), the part of a picture a tile draws
(``tile_view.py``), an event in the pit boss's words (``event_words.py``), the alerts and their
acknowledgements (``alerts.py``), the pit's actions and their record (``actions.py``), rated play and
shift figures live (``rated.py``), and what is read back at start: the books and game protection the
monitor kept (``kept.py``), the stored events of the rated players' tables (``protection_load.py``).
Nothing here serves a page or writes a report; the stores are below (:mod:`controller.podium.monitor.stores`).
"""
