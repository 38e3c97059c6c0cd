"""Easy Jack: blackjack to 11 with the Dealer Bust side wager (rules and exact house edge)."""
