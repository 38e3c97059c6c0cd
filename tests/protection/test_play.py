"""Each decision read from a hand's events and checked against the game's own strategy, at the count then."""

from __future__ import annotations

from typing import Any

from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.buster_blackjack_x.strategy import Strategy
from controller.games.catalog import rules_json
from controller.games.easy_jack.rules import EasyJackRules
from controller.podium.protection.play import Decision
from controller.podium.protection.watch import Protection
from tests.rigs.followed import followed


class Script:
    """Events of one table fed to a :class:`Protection`, numbered as a table numbers them."""

    def __init__(self, game: str, rules: Any) -> None:
        self.protection = Protection()
        self.seq = 0
        self.hand = 0
        self.index = 0
        self.feed("table.opened", None, game=game, seats=6, limits={}, recovered=False,
                  rules=rules if isinstance(rules, dict) else rules_json(rules))

    def feed(self, kind: str, hand: int | None, **data: Any) -> None:
        self.seq += 1
        self.protection.feed("T1", "", followed({"seq": self.seq,
                                                 "ts": f"2026-11-21T10:00:{self.seq % 60:02d}.000Z",
                                                 "type": kind, "hand": hand, "data": data}, "T1"))

    def shoe(self) -> None:
        self.index = 0
        self.feed("shoe.loaded", None, shoe_id=1, decks=6)

    def start(self, bets: dict[int, int], dealer: int | None = None, spot: str = "main") -> None:
        self.hand += 1
        self.feed("hand.started", self.hand, seats=sorted(bets), dealer_seat=dealer)
        self.feed("bets.closed", self.hand,
                  bets=[{"seat": s, "spot": spot, "amount": a} for s, a in bets.items()])

    def card(self, to: Any, card: str | None, hand_index: int = 0) -> None:
        self.index += 1
        seat = None if to == "dealer" else to
        self.feed("card.dealt", self.hand, index=self.index, to="dealer" if seat is None else "seat",
                  seat=seat, hand_index=hand_index, card=card, face_up=card is not None)

    def act(self, seat: int, action: str, hand_index: int = 0, amount: int | None = None) -> None:
        data: dict[str, Any] = {"seat": seat, "hand_index": hand_index, "action": action}
        if amount is not None:
            data["amount"] = amount
        self.feed("player.action", self.hand, **data)

    def decisions(self) -> list[Decision]:
        return [d for t in self.protection.tallies.values() for d in t.decided]


def test_easy_jack_hits_are_cards_and_a_one_card_6_kept_at_a_high_count_is_a_count_play() -> None:
    play = Script("easy-jack", EasyJackRules())
    play.shoe()
    for low in ("2c", "3d", "4h", "5s", "6c", "2d", "3h", "4s", "5c", "6d", "2h", "3s", "4c", "5d"):
        play.card(None, low)                        # cards seen (a shoe's first, burned to the count)
    play.start({1: 1000, 2: 1000})
    play.card(1, "6h")                              # seat 1: a one-card 6
    play.card(2, "3c")                              # seat 2: 3
    play.card("dealer", None)                       # the hole card
    play.act(1, "stand")                            # the strategy hits a one-card 6
    play.card(2, "4d")                              # seat 2 hits 3 (as the strategy does): 7
    play.act(2, "stand")
    found = play.decisions()
    assert [(d.seat, d.taken, d.advised, d.matched) for d in found] == [
        (1, "stand", "hit", False), (2, "hit", "hit", True), (2, "stand", "stand", True)]
    count_play = found[0]
    assert count_play.true > 2 and count_play.direction == "daring" and count_play.with_count(3.0)
    figures = play.protection.tallies[next(iter(play.protection.tallies))].figures()
    assert figures.decisions == 1 and figures.count_plays == 1


def test_buster_doubles_splits_and_insurance_against_its_strategy() -> None:
    rules = BusterRules()
    strategy = Strategy(rules)
    play = Script("buster-blackjack-x", rules)
    play.shoe()
    play.start({1: 1000, 2: 1000})
    play.card(1, "8h")
    play.card(2, "6c")
    play.card("dealer", "As")                       # the up card
    play.card(1, "8d")
    play.card(2, "5h")
    play.card("dealer", None)
    play.act(1, "insurance", amount=500)
    play.act(2, "no_insurance")
    play.act(1, "split", amount=1000)               # 8s against an ace
    play.card(1, "Tc", hand_index=0)                # owed to the split hand: no decision
    play.act(1, "stand", hand_index=0)              # 18 against an ace
    play.card(1, "3d", hand_index=1)                # the second hand's card, owed
    play.card(1, "9s", hand_index=1)                # a hit: a card not owed
    play.act(1, "stand", hand_index=1)
    play.act(2, "double", amount=1000)              # 11 against an ace
    play.card(2, "Kd")                              # the double's card: no decision
    found = [(d.seat, d.hand_index, d.kind, d.taken, d.advised) for d in play.decisions()]
    best = {"S": "stand", "H": "hit", "D": "double", "P": "split", "R": "surrender"}
    assert found == [                               # seat 1's, then seat 2's
        (1, 0, "insurance", "insurance", "no_insurance"),
        (1, 0, "play", "split", best[strategy.ranked(16, False, 8, 1)[0]]),
        (1, 0, "play", "stand", best[next(a for a in strategy.ranked(18, False, 0, 1) if a != "P")]),
        (1, 1, "play", "hit", best[next(a for a in strategy.ranked(11, False, 0, 1) if a != "P")]),
        (1, 1, "play", "stand", "hit" if strategy.hits(20, False, 1) else "stand"),
        (2, 0, "insurance", "no_insurance", "no_insurance"),
        (2, 0, "play", "double", best[strategy.ranked(11, False, 0, 1)[0]]),
    ]
    insured = play.decisions()[0]
    assert insured.direction == "daring" and not insured.with_count(3.0)   # the count is low: an error


def test_a_game_without_a_strategy_is_said_to_be_unchecked() -> None:
    play = Script("holdem-blackjack", {})
    assert play.protection.tables["T1"].play.strategy is None
    assert play.protection.tables["T1"].unchecked is not None
    extreme = Script("blackjack-extreme", {})
    assert "face down" in (extreme.protection.tables["T1"].unchecked or "")


def test_an_opening_whose_game_is_not_a_string_is_left_out_and_said() -> None:
    wrong = Script("easy-jack", EasyJackRules())
    wrong.feed("table.opened", None, game=7, seats=6, limits={}, recovered=False, rules={})
    assert wrong.protection.problems == [
        "table T1 seq 2: table.opened: TableOpened.game must be str, found 7 (int)"]
    assert wrong.protection.tables["T1"].game == "easy-jack"            # the last good opening's, kept
    never = Protection()
    never.feed("T1", "", followed({"seq": 1, "type": "table.opened", "data": {
        "game": ["easy-jack"], "seats": 6, "limits": {}, "recovered": False}}, "T1"))
    assert never.tables["T1"].game is None and never.tables["T1"].play.strategy is None
    assert never.problems == ["table T1 seq 1: table.opened: TableOpened.game must be str, "
                              "found ['easy-jack'] (list)"]


def test_only_the_hands_the_house_banks_count_for_bets() -> None:
    buster = Script("buster-blackjack-x", BusterRules())
    buster.shoe()
    buster.start({1: 1000, 2: 2000}, dealer=3)              # a player-dealer banks the main wagers
    assert buster.protection.tallies == {}
    buster.start({1: 1000, 2: 2000})                        # the house banks
    assert sorted((t.hands, t.largest) for t in buster.protection.tallies.values()) == [(1, 1000), (1, 2000)]
    extreme = Script("blackjack-extreme", {})
    extreme.shoe()
    extreme.start({1: 1000}, dealer=2)
    holdem = Script("holdem-blackjack", {})
    holdem.shoe()
    holdem.start({1: 1000}, spot="bet")
    assert extreme.protection.tallies == holdem.protection.tallies == {}
    unseen = Script("easy-jack", EasyJackRules())
    unseen.start({1: 1000})                                 # no shoe seen loaded: no count, no round
    assert unseen.protection.tallies == {}
