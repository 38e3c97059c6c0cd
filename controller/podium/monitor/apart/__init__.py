"""Work kept apart from the monitor's loop: the games' math, which takes seconds of CPU.

A table's edges in a child process (``edges.py``), the games' strategies on a thread of their own
(``strategies.py``).
"""
