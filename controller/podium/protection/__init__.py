"""Game protection on the pit side: the count of every shoe, who bets with it, how they play.

``systems``: card-counting systems as data (Hi-Lo, KO, Hi-Opt I, Omega II), one picked per floor.
``count``: one table's shoe counted from its events (running and true count, decks left).
``play``: each decision of a hand against the game's own basic strategy, with the count then.
``strategies``: the games' strategy modules behind one small interface (the games without one: none).
``tally``: what one player (a rating) or one unrated seat did: bets against the count, wonging,
decisions, and the figures and suspicion worked out from them.
``settings``: the thresholds, the count system, live or held figures (the floor file's ``[protection]``).
``watch``: a floor's tables and subjects fed the events, raising ``advantage_play_suspected``.

All of it is pure: fed the events as published (hidden cards ``null``), never reading a clock, a
file (but :func:`~controller.podium.protection.settings.read_protection`) or a socket, and never
shown to the table: the dealer's screen knows nothing of it.
"""
