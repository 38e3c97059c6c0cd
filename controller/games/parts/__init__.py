"""Parts the games share: card totals, and (as games need them) betting rounds, pots, pay tables."""
