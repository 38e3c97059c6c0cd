"""How each wager of Buster Blackjack X settles: pure functions of where the hands stand.

Each returns ``(outcome, net payout in cents, label)``; a fraction of a cent is
rounded down (6 to 5 on 1003 pays 1203), and a surrender forfeits the larger
half of an odd wager. The hand (:mod:`controller.games.buster_blackjack_x.hand`)
and the math (:mod:`controller.games.buster_blackjack_x.math`) both settle here.

>>> from controller.games.buster_blackjack_x.rules import BusterRules
>>> from controller.games.buster_blackjack_x.totals import Standing
>>> rules = BusterRules()
>>> main_result(rules, Standing("31", 31, 4, True), Standing("high", 29, 2), 1000)
('natural', 3000, 'hard-31')
>>> main_result(rules, Standing("total", 20, 2), Standing("bust", 25, 3), 1000)
('win', 1000, None)
>>> main_result(rules, Standing("total", 21, 3), Standing("high", 28, 2), 1000)
('lose', -1000, None)
"""

from __future__ import annotations

from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.buster_blackjack_x.totals import TARGET, Standing

NATURALS = ("blackjack-x", "natural-31")
"""The two-card 31s, best first."""

Result = tuple[str, int, str | None]
"""(outcome, the player's net payout in cents, label)."""


def main_result(rules: BusterRules, player: Standing, dealer: Standing, wager: int) -> Result:
    """The base wager's result for a player hand against the player-dealer's.

    Blackjack X pays 2 to 1 and beats a Natural 31, which pays 6 to 5; two equal
    naturals push. A player-dealer natural ends the hand at once and beats every
    other hand. A hard 31 pays 3 to 1, any other 31 even money; 31 against 31
    pushes. A player's 22 to 30 loses whatever the player-dealer holds; a
    player-dealer hand that loses to 21 or less pays every such hand; 28 to 30
    settles against 21 or less by ``dealer_28_to_30``.

    >>> rules = BusterRules()
    >>> main_result(rules, Standing("blackjack-x", 31, 2), Standing("natural-31", 31, 2), 500)
    ('natural', 1000, 'blackjack-x')
    >>> main_result(rules, Standing("natural-31", 31, 2), Standing("total", 20, 3), 1003)
    ('natural', 1203, 'natural-31')
    >>> main_result(rules, Standing("surrendered", 16, 2), Standing("total", 20, 3), 1001)
    ('surrender', -501, None)
    """
    if player.kind == "surrendered":
        return "surrender", -(wager - wager // 2), None
    if player.kind == "lost":
        return "lose", -wager, None
    if dealer.kind in NATURALS or player.kind in NATURALS:
        return _naturals(player, dealer, wager)
    if player.kind == "31":
        if dealer.kind == "31":
            return "push", 0, None
        if player.hard_31:
            return "natural", wager * 3, "hard-31"
        return "win", wager, None
    if dealer.kind == "bust":
        return "win", wager, None
    if dealer.kind == "31" or (dealer.kind == "high" and rules.dealer_28_to_30 == "wins"):
        return "lose", -wager, None
    if dealer.kind == "high" or player.total == dealer.total:
        return "push", 0, None
    return ("win", wager, None) if player.total > dealer.total else ("lose", -wager, None)


def _naturals(player: Standing, dealer: Standing, wager: int) -> Result:
    """Settlement when either hand is a two-card 31."""
    mine = NATURALS.index(player.kind) if player.kind in NATURALS else len(NATURALS)
    theirs = NATURALS.index(dealer.kind) if dealer.kind in NATURALS else len(NATURALS)
    if mine == theirs:
        return "push", 0, None
    if mine > theirs:
        return "lose", -wager, None
    if player.kind == "blackjack-x":
        return "natural", wager * 2, "blackjack-x"
    return "natural", wager * 6 // 5, "natural-31"


def insurance_result(rules: BusterRules, dealer: Standing, wager: int) -> Result:
    """Insurance pays 2 to 1 when the player-dealer has a Natural 31 (and a Blackjack X, with
    ``insurance_pays_on_blackjack_x``), else loses.

    >>> insurance_result(BusterRules(), Standing("blackjack-x", 31, 2), 500)
    ('win', 1000, None)
    >>> no_x = BusterRules(insurance_pays_on_blackjack_x=False)
    >>> insurance_result(no_x, Standing("blackjack-x", 31, 2), 500)
    ('lose', -500, None)
    """
    pays = dealer.kind == "natural-31" or (
        dealer.kind == "blackjack-x" and rules.insurance_pays_on_blackjack_x)
    return ("win", wager * 2, None) if pays else ("lose", -wager, None)


def bonus_busts(rules: BusterRules, dealer: Standing) -> bool:
    """Whether the player-dealer's final hand is a bust for the Buster bonus (``bonus_bust``)."""
    if dealer.kind in NATURALS:
        return False
    if rules.bonus_bust == "over_31":
        return dealer.total > TARGET
    return dealer.kind == "bust"


def bonus_result(rules: BusterRules, dealer: Standing, wager: int) -> Result:
    """The Buster bonus: paid by the number of cards in a busted player-dealer hand, else lost.

    >>> from controller.games.buster_blackjack_x.totals import Standing
    >>> bonus_result(BusterRules(), Standing("bust", 24, 5), 100)
    ('win', 400, 'bust in 5 cards pays 4 to 1')
    >>> bonus_result(BusterRules(), Standing("total", 19, 3), 100)
    ('lose', -100, None)
    """
    if not bonus_busts(rules, dealer):
        return "lose", -wager, None
    odds = rules.bonus_odds(dealer.cards)
    return "win", wager * odds, f"bust in {dealer.cards} cards pays {odds} to 1"
