"""Hold'em Blackjack: a player-to-player blackjack pot game with poker betting (rules, hand, game, rake)."""
