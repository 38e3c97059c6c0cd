"""Tests of Hold'em Blackjack and the shared parts of pot games."""
