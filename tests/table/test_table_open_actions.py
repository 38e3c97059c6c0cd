"""The instruction and the open actions always agree, in every game (issue 25 item 5).

A hand of each game is walked at random, in process on a real journal: the
actions the picture offers taken with their chips on the spot, the cards drawn,
and the boards going offline and back at any moment. At every picture:

- every action the picture's ``actions`` lists is accepted by the table at that
  moment (a dry check: the table's refusal, or for an amount a spot carries the
  game's own check of that amount, and no board the hand waits for);
- the instruction names no action that is not offered: on a table with a screen
  and no button, each action it names is the screen's label, quoted, of an offered
  one; on a table with every button, each in capitals is an offered one;
- it says "Wait" only while the hand offers none of its actions, and never
  "(by control)" nor an action's raw name.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.commands.table import TABLE_ACTIONS
from controller.events.codec import record_json
from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.buster_blackjack_x.game import BusterBlackjackX
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.interface import Game, Limits, RuleError
from controller.table.gather import to_gather
from controller.table.machine import FLOOR_ACTIONS, TABLE_BUTTONS
from controller.table.views import table_picture
from drivers.inputs import CardDrawn, DeviceOffline, DeviceOnline
from firmware_bridge.kernel.cards import Card
from tests.rigs.table_rig import Rig

RANKS = "A23456789TJQK"
SUITS = "shdc"


def _buy_in(rig: Rig, stacks: dict[int, int]) -> None:
    for seat, amount in stacks.items():
        assert rig.table.command("buy_in", {"seat": seat, "amount": amount}) is None


def _easy_jack(rig: Rig) -> None:
    rig.ready(s1_main=1000, s2_main=1500)


def _buster(rig: Rig) -> None:
    rig.ready(s1_main=1000, s2_main=1500, s3_main=500)


def _banked(rig: Rig) -> None:
    _buy_in(rig, {1: 100000})
    rig.ready(s2_main=1000, s3_main=1500)


def _extreme(rig: Rig) -> None:
    _buy_in(rig, {1: 50000, 2: 20000, 3: 20000, 4: 20000})
    rig.ready(s2_main=1000, s3_main=1000, s4_main=1500)


def _holdem(rig: Rig) -> None:
    _buy_in(rig, {1: 10000, 2: 10000, 3: 10000})
    rig.ready(s2_bet=100, s3_bet=200)


LIMITS = Limits(500, 50000)

GAMES: dict[str, tuple[Callable[[], Game[Any]], Callable[[Rig], None]]] = {
    "easy-jack": (lambda: EasyJack(EasyJackRules(), LIMITS), _easy_jack),
    "buster-blackjack-x": (lambda: BusterBlackjackX(BusterRules(banker="house"), LIMITS), _buster),
    "buster-banked": (lambda: BusterBlackjackX(BusterRules(collection_fee=100), LIMITS), _banked),
    "blackjack-extreme": (lambda: BlackjackExtreme(BlackjackExtremeRules(), LIMITS), _extreme),
    "holdem-blackjack": (lambda: HoldemBlackjack(HoldemBlackjackRules(), Limits(200, 2000)), _holdem),
}


def accepted(rig: Rig, action: dict[str, Any]) -> str | None:
    """Why the table would refuse ``action`` as the picture offers it now (None: it takes it)."""
    table, name = rig.table, action["name"]
    if name in FLOOR_ACTIONS:
        return None if name == "call_floor" or table.state.floor.message is not None else "no message"
    if action["spot"] is not None and action["low"] is not None:
        if table.hand_waits_for():
            return "a board is offline"
        assert table.state.hand is not None
        try:
            table.state.hand.verify(name, action["low"])       # the spot reading its lowest amount
        except RuleError as error:
            return str(error)
        return None
    return table.refusal(name, action["low"])


def check(rig: Rig, buttons: tuple[str, ...]) -> dict[str, Any]:
    """The picture now, checked: its actions accepted, its instruction naming only those."""
    picture = record_json(table_picture(rig.table))
    offered = [a["name"] for a in picture["actions"]]
    for action in picture["actions"]:
        assert accepted(rig, action) is None, (action, accepted(rig, action), picture["instruction"])
    words = picture["instruction"]
    labels = {**dict(rig.table.game.action_labels), **TABLE_ACTIONS}
    named = set(re.findall("\u201c([^\u201d]*)\u201d", words))
    assert named <= {labels[name] for name in offered}, (words, offered)
    capitals = {w.lower() for w in re.findall(r"\b[A-Z][A-Z_]+\b", words)}
    game_actions = set(rig.table.game.actions) | set(TABLE_BUTTONS)
    assert capitals & game_actions <= set(offered) & set(buttons), (words, offered)
    assert "by control" not in words and not any(f"{n} " in words or f"({n}" in words
                                                  for n in game_actions if "_" in n), words
    if words.startswith("Wait"):
        assert set(offered) <= {"void", "call_floor", "acknowledge"}, (words, offered)
    return picture


def move(rig: Rig, picture: dict[str, Any], deck: list[str], chance: random.Random) -> None:
    """One thing that may happen now: an offered action, a card, a board offline or back, the
    bets of a round gathered into the pot (as the instruction asks, before anything else)."""
    table = rig.table
    if picture["instruction"].startswith("Gather the bets"):
        for off in to_gather(table):
            rig.bet(off.seat, off.spot, off.due)
        return
    offline = [name for name in ("shoe", "rfid") if not table.state.devices[name].online]
    if offline and chance.random() < 0.5:
        rig.do(DeviceOnline(chance.choice(offline), "f", "s"))
        return
    if not offline and chance.random() < 0.08:
        rig.do(DeviceOffline(chance.choice(["shoe", "rfid"]), "no answer for 3 s"))
        return
    routine = [a for a in picture["actions"] if a["name"] not in ("void", "call_floor", "acknowledge")]
    hand = table.state.hand
    wants_card = table.phase == "in_hand" and hand is not None and hand.can_deal() and not offline
    if wants_card and (not routine or chance.random() < 0.5):
        rig.do(CardDrawn(42, table.state.shoe.last_index + 1, Card.parse(deck.pop())))
        return
    if not routine:
        assert offline, picture["instruction"]        # a hand that waits for nothing offers something
        rig.do(DeviceOnline(offline[0], "f", "s"))
        return
    action = chance.choice(routine)
    if action["spot"] is not None and action["low"] is not None:
        rig.bet(action["seat"], action["spot"], action["low"])
        amount = None
    else:
        amount = action["low"] if action["low"] is None else chance.randint(action["low"], action["high"])
    reason = table.press(action["name"], amount, physical=False)
    if action["spot"] is None:
        assert reason is None, (action, reason)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("screen", [True, False], ids=["screen", "buttons"])
def test_every_offered_action_is_taken_and_the_instruction_names_only_those(
        tmp_path: Path, game: str, seed: int, screen: bool) -> None:
    make, ready = GAMES[game]
    made = make()
    buttons = () if screen else (*TABLE_BUTTONS, *made.actions)
    rig = Rig(tmp_path, game=made, buttons=buttons)
    ready(rig)
    chance = random.Random(seed)
    deck = [rank + suit for rank in RANKS for suit in SUITS] * made.decks
    chance.shuffle(deck)
    check(rig, buttons)
    assert rig.table.press("deal", physical=False) is None
    for _ in range(400):
        picture = check(rig, buttons)
        if rig.table.phase == "settled":
            break
        move(rig, picture, deck, chance)
    assert rig.table.phase == "settled", record_json(table_picture(rig.table))["instruction"]
    picture = check(rig, buttons)
    if picture["instruction"].startswith("Gather the bets"):        # the last round's, as the hand ended
        move(rig, picture, deck, chance)
        picture = check(rig, buttons)
    assert "next" in [a["name"] for a in picture["actions"]]
