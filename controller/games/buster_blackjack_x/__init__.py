"""Buster Blackjack X: blackjack to 31 with a player-dealer, the Buster bonus and the Blazing 7's progressive.

Modules: ``rules`` (the ``[game]`` options), ``totals`` (card counts and totals
to 31), ``outcomes`` (how each wager settles), ``progressive`` (Blazing 7's
prizes and the meter), ``bank`` (the player-dealer's bank), ``hand`` (one hand,
frozen), ``game`` (the game bound to the table), ``strategy`` / ``simulate`` /
``math`` (``table-controller math``). The rules in words:
``docs/games/buster-blackjack-x.md``.
"""
