"""Blackjack Extreme: blackjack with a rotating player-dealer who banks every bet, blind bets, a
second betting round, dealer surrender, short-stack payments and tournaments."""
