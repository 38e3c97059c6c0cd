"""Rated play and shift figures: what each wager is worth to the house, and what a player or a table did.

``edges``: each wager spot's house edge under a table's rules, the record a rating keeps.
``figures``: :func:`~controller.podium.ratings.figures.edges_of`, those edges from the game's own math.
``hands``: a table's events read as settled hands, jackpots paid and the table closed.
``theo``: the wagers kept exact, and the theoretical win worked out from them and the edges.
``rating``: a rated player's record and figures, and one table's ratings fed its events.
``shift``: shift bounds, the floor file's ``[shifts]``, and each table's and pit's shift figures.

All of it is pure: fed the events as published, told the time (``now``), never reading a clock,
a file (but :func:`~controller.podium.ratings.shift.read_floor`) or a socket.
"""
