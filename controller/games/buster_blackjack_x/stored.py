"""The base wager's simulated house edge, stored for the example rules (generated: do not edit).

Written by ``bench/buster_figures.py`` (``make buster-figures``); read by
:func:`controller.games.buster_blackjack_x.math.stored_base`.
"""

from __future__ import annotations

from typing import TypedDict

from controller.games.options import OptionJson


class Stored(TypedDict):
    """One simulation's figures, and every rule set (as :func:`~controller.games.catalog.rules_json`
    gives it) whose simulation it is."""

    house_edge: float
    interval: list[float]
    rounds: int
    rules: list[dict[str, OptionJson]]


STORED: dict[str, Stored] = {
    '8a1d0eb9f6d6842a79d8281e548c20cf6c6543c5232b8f904bfb0f47ca4cb5b1': {
        'house_edge': 0.028600653380415224,
        'interval': [0.028100940780996078, 0.02910036597983437],
        'rounds': 20250000,
        'rules': [
            {'decks': 8,
             'aces': '1_or_21',
             'hard_31': 'three_or_more_cards',
             'dealer_stands_on': 17,
             'dealer_draws_past_21': False,
             'dealer_28_to_30': 'wins',
             'insurance': True,
             'insurance_pays_on_blackjack_x': True,
             'hit_button': False,
             'bonus_bust': 'loses_to_21',
             'bonus_pays': {'3': 2, '4': 2, '5': 4, '6': 12, '7': 50, '8': 250},
             'progressive_wager': 100,
             'progressive_base': 100000,
             'progressive_increment': 5,
             'progressive_suited_percent': 100,
             'progressive_colour_percent': 10,
             'progressive_pays': {'3': 200, '2': 25, '1': 2},
             'banker': 'rotate',
             'banker_seat': 1,
             'cover_order': 'banker_left',
             'collection_fee': 0,
             'min_bank': 10000},
            {'decks': 8,
             'aces': '1_or_21',
             'hard_31': 'three_or_more_cards',
             'dealer_stands_on': 17,
             'dealer_draws_past_21': False,
             'dealer_28_to_30': 'wins',
             'insurance': True,
             'insurance_pays_on_blackjack_x': True,
             'hit_button': False,
             'bonus_bust': 'loses_to_21',
             'bonus_pays': {'3': 2, '4': 2, '5': 4, '6': 12, '7': 50, '8': 250},
             'progressive_wager': 100,
             'progressive_base': 100000,
             'progressive_increment': 5,
             'progressive_suited_percent': 100,
             'progressive_colour_percent': 10,
             'progressive_pays': {'3': 200, '2': 25, '1': 2},
             'banker': 'rotate',
             'banker_seat': 1,
             'cover_order': 'banker_left',
             'collection_fee': 100,
             'min_bank': 10000},
        ],
    },
}
