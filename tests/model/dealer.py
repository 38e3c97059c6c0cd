"""The simulated dealer of the mistake model: random hands of a game dealt on the real table core.

:class:`Model` is one table: the real :class:`~controller.table.machine.Table` on a real journal
(every step fsynced, as the daemon runs it), fed the driver inputs the physical table
(:class:`~tests.model.physical.Chips`) produces, and a dealer who moves the chips, draws the
cards and presses the buttons. The dealer plays as :mod:`controller.devkit.demo_dealer` does,
for every game: the players bet, every action's chips are pushed onto the spot of the seat in
turn before its button is pressed, between actions the dealer brings each spot to what the hand
says it holds (a pot game's bets gathered into the pot, a payment walk's step paid or collected),
and at settlement pays and collects what the table asks (its ``checks``) or, in a game of
stacks, moves the chips so that every stack holds what NEXT will say.

:meth:`Model.hand` deals one hand, with one mistake of the catalogue
(:mod:`tests.model.catalogue`) made at a random moment where it can be made, or none. What the
table said from that moment (alerts, refusals) is kept in :class:`Outcome`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.events import alerts as alert_registry
from controller.games.interface import Decision, Stacks
from controller.journal.log import Journal
from controller.table.machine import Table, TableSettings
from controller.table.views import stack_changes
from drivers.inputs import CardDrawn, DeviceOffline, DeviceOnline, DriverInput, ShoeLoaded, SpotsRead
from firmware_bridge.kernel.cards import Card
from tests.model.games import SETUPS, Setup
from tests.model.physical import Chip, Chips

TRAY_OPENING = 2_000_000
"""The tray's opening: $20,000.00 in every denomination."""

SKIPPED_ACTIONS = frozenset({"expose", "count", "decline", "rebuy"})
"""Actions the simulated dealer never chooses (a card exposed by mistake, a count asked for, a
player declining, a re-buy: none is part of dealing a hand)."""

PAYMENTS = frozenset({"underpay", "overpay", "wrong_seat", "leave_losing", "collect_winning"})


@dataclass
class Outcome:
    """What the table said about a mistake, from the moment it was made to the next deal."""

    kind: str
    game: str
    injected: bool = False
    alerts: list[dict[str, Any]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    ledger_equal: bool | None = None
    """Whether the table's account equalled the physical table at the hand's end."""

    @property
    def codes(self) -> list[str]:
        return [str(data.get("code")) for data in self.alerts]

    @property
    def told(self) -> list[str]:
        """What the dealer was told to do: each alert's todo (or its message), each refusal."""
        return [alert_registry.todo(data) or str(data.get("message", "")) for data in self.alerts] + \
            self.refusals


class ModelError(AssertionError):
    """The model went wrong: a clean hand raised an alert or a refusal, or chips were lost."""


class Model:
    """One table of one game, its physical chips and its simulated dealer."""

    def __init__(self, folder: Path, game: str, rng: random.Random) -> None:
        self.setup: Setup = SETUPS[game]
        self.rng = rng
        made = self.setup.make()
        low, high = self.setup.limits
        settings = TableSettings("MODEL", game, 6, {"min_bet": low, "max_bet": high}, self.setup.buttons,
                                 ("shoe", "rfid"), payout_check=True, tray=True, repeat_window=1.0)
        self.journal = Journal.open(folder / "journal.log")
        ticks = iter(range(10**12))
        self.now = 0.0
        """The table's monotonic clock: a dealer's press comes 2 s after the last, a double press 0.3 s."""
        self.table = Table(settings, made, write=lambda records: self.journal.append(*records),
                           clock=lambda: f"2026-12-06T00:00:00.{next(ticks) % 1000:03d}Z",
                           monotonic=lambda: self.now)
        self.events: list[dict[str, Any]] = []
        self.table.set_publisher(lambda topic, body: self.events.append(json.loads(body)))
        self.table.open(recovered=False)
        self.players = self.setup.seats(rng)
        self.chips = Chips(TRAY_OPENING, self.players)
        self.refusals: list[str] = []
        self.shoe: list[Card] = []
        self.shoe_id = 0
        self.index = 0
        self.online = {"shoe": True, "rfid": True}
        self.base: int | None = None
        """A game of stacks: the ledger's total between hands (stacks and drop), which every step of
        the hand must keep (:meth:`check_ledger`)."""
        self.send(DeviceOnline("shoe", "model", "SH-1"))
        self.send(DeviceOnline("rfid", "model", "RF-1"))
        self.report()
        if self.setup.stacks:
            for seat, cents in sorted(self.players.items()):
                refused = self.table.command("buy_in", {"seat": seat, "amount": cents})
                assert refused is None, refused
        self.mistake: str | None = None
        self.outcome: Outcome | None = None
        self._spoilt: tuple[int, str] | None = None
        """The spot a payment walk's step was paid wrong on, left so until the table says so."""
        self._pending_replug: int | None = None
        self._marked = 0
        self._refused_mark = 0

    # -- inputs -------------------------------------------------------------------------

    def send(self, item: DriverInput) -> None:
        self.table.handle(item)

    def report(self) -> None:
        """What the reader reports of the chips now (nothing while it is unplugged)."""
        assert self.chips.conserved(), "chips created or destroyed"
        for reading in self.chips.readings():
            self.table.handle(reading)
        self.check_ledger()

    def check_ledger(self) -> None:
        """A game of stacks: the table's ledger adds up at every step, its stacks (less what each
        seat has put in the hand), spots, pots and drop box equal to what they were between hands."""
        if not self.setup.stacks:
            return
        account = self.table.ledger()
        total = sum(account.stacks.values()) + sum(account.spots.values()) + sum(account.pots) + account.drop
        if self.table.state.hand is None:
            self.base = total
        elif self.base is not None and total != self.base:
            raise ModelError(f"the ledger's total {total} is not {self.base} between hands: {account}")

    def press(self, button: str, amount: int | None = None, soon: bool = False) -> str | None:
        """Press a button (``soon``: a bounce of the press before, 0.3 s after it); a refusal is kept
        (and a wait for an unplugged board mended by plugging it back in and pressing again)."""
        self.now += 0.3 if soon else 2.0
        reason = self.table.press(button, amount)
        if reason is not None and "offline" in reason and not all(self.online.values()):
            self.refusals.append(reason)
            self.replug()
            reason = self.table.press(button, amount)
        if reason is not None:
            self.refusals.append(reason)
        return reason

    def draw(self) -> None:
        """The dealer draws a card from the shoe (plugging the shoe back in first, if unplugged)."""
        if not self.online["shoe"]:
            self.replug()
        self.index += 1
        self.send(CardDrawn(self.shoe_id, self.index, self.shoe[self.index - 1]))

    def load_shoe(self) -> None:
        decks = self.table.game.decks
        self.shoe = [Card.parse(rank + suit) for rank in "A23456789TJQK" for suit in "cdhs"] * decks
        self.rng.shuffle(self.shoe)
        self.shoe_id += 1
        self.index = 0
        self.send(ShoeLoaded(self.shoe_id, decks))

    def unplug(self, device: str) -> None:
        self.online[device] = False
        if device == "rfid":
            self.chips.reader_online = False
        self.send(DeviceOffline(device, "unplugged"))

    def replug(self) -> None:
        """Every unplugged board plugged back in; the reader reports what changed meanwhile, then
        that it has read every spot again (as drivers.rfid.SpotReader says once its session's first
        inventories are in)."""
        self._pending_replug = None
        read_again = not self.online["rfid"]
        for device in ("shoe", "rfid"):
            if not self.online[device]:
                self.online[device] = True
                self.send(DeviceOnline(device, "model", "SH-1" if device == "shoe" else "RF-1"))
                if device == "rfid":
                    self.chips.reader_online = True
        self.report()
        if read_again:
            self.send(SpotsRead("rfid"))

    def tick(self) -> None:
        """One act done: an unplugged board comes back once its acts are over."""
        if self._pending_replug is not None:
            self._pending_replug -= 1
            if self._pending_replug <= 0:
                self.replug()

    # -- the dealer's chips -------------------------------------------------------------

    @property
    def house(self) -> bool:
        return not self.setup.stacks

    def payer(self, dealer: int | None) -> list[Chip]:
        """Where the dealer pays from now: the tray (the house banks), else the chips taken into
        the middle, then the player-dealer's stack."""
        if self.house:
            return self.chips.tray
        if dealer is not None and self.chips.worth(self.chips.pot) == 0:
            return self.chips.stack(dealer)
        return self.chips.pot

    def pay_spot(self, seat: int, spot: str, cents: int, dealer: int | None) -> None:
        """The dealer brings a spot to ``cents``: paying out of the payer, collecting into it."""
        pile = self.chips.spot(seat, spot)
        need = cents - self.chips.worth(pile)
        if need > 0:
            source = self.payer(dealer)
            if self.chips.worth(source) < need and dealer is not None:   # the middle, then the dealer's
                self.chips.move(source, pile, self.chips.worth(source))
                source = self.chips.stack(dealer)
                need = cents - self.chips.worth(pile)
            self.chips.move(source, pile, need)
        elif need < 0:
            self.chips.move(pile, self.chips.tray if self.house else self.chips.pot, -need)

    def tidy(self) -> None:
        """Between actions: every spot brought to what the hand says it holds now."""
        hand = self.table.state.hand
        if hand is None or self.table.phase != "in_hand":
            return
        committed = hand.committed()
        dealer = self.table.game.dealer_seat(self.table.state.session) if self.setup.stacks else None
        gathering = [key for key, pile in self.chips.spots.items()
                     if self.chips.worth(pile) > committed.get(key, 0)]
        if gathering and self.mistake == "forget_gather" and self.setup.pot and (
                self._may_inject(always=True) or self._still_forgotten()):
            self.report()
            return
        paying = sorted(key for key, cents in committed.items()
                        if self.chips.worth(self.chips.spot(*key)) != cents)
        for key in sorted(set(gathering) | set(paying)):
            target = committed.get(key, 0)
            now = self.chips.worth(self.chips.spot(*key))
            if self.mistake in PAYMENTS and self._walk_step(key, now, target) and self._may_inject(True):
                target = self._mispaid(key, now, target)
                self._spoilt = key
            elif key == self._spoilt and self._still_forgotten():
                continue                        # the dealer goes on, the step's mistake unseen until told
            self.pay_spot(key[0], key[1], target, dealer)
        self.report()

    def _still_forgotten(self) -> bool:
        """Whether the dealer who forgot to gather has not been told yet (nothing refused, no
        alert since): the bets stay on the spots while the hand goes on."""
        told = len(self.refusals) > self._refused_mark or any(
            event["type"] == "alert" for event in self.events[self._marked:])
        return self.outcome is not None and self.outcome.injected and not told

    def _walk_step(self, key: tuple[int, str], now: int, target: int) -> bool:
        """Whether bringing ``key`` from ``now`` to ``target`` is a payment walk's step the mistake
        in hand can spoil."""
        hand = self.table.state.hand
        if hand is None or not getattr(hand, "claims", None):
            return False
        if self.mistake in ("underpay", "overpay", "collect_winning"):
            return target > now
        if self.mistake == "leave_losing":
            return target == 0 and now > 0
        return False

    def _mispaid(self, key: tuple[int, str], now: int, target: int) -> int:
        """What a spot is brought to instead of ``target`` by the mistake in hand."""
        kind = self.mistake
        if kind == "underpay":
            return max(now, target - 100)
        if kind == "overpay":
            return target + 100
        if kind == "collect_winning":
            return 0
        return now                                              # leave_losing

    # -- a hand -------------------------------------------------------------------------

    def _may_inject(self, always: bool = False) -> bool:
        """Whether the mistake in hand is made at this moment where it can be (once per hand)."""
        if self.mistake is None or self.outcome is None or self.outcome.injected:
            return False
        if not always and self.rng.random() < 0.5:
            return False
        self.outcome.injected = True
        self._marked = len(self.events)
        self._refused_mark = len(self.refusals)
        return True

    def bet(self) -> None:
        """The players put their bets on the spots."""
        seated = sorted(self.players)
        if self.setup.stacks:
            seated = sorted(self.table.state.session[Stacks].stacks)
        bets = self.setup.bets(self.table.game, self.table.state.session, seated, self.rng)
        for _ in range(6):                      # nobody may play against this dealer: the deal passes
            if bets or "pass_deal" not in self.table.game.commands:
                break
            refused = self.table.command("pass_deal", {})
            if refused is not None:
                raise ModelError(f"pass_deal refused: {refused}")
            bets = self.setup.bets(self.table.game, self.table.state.session, seated, self.rng)
        for (seat, spot), cents in sorted(bets.items()):
            self.chips.bring(self.chips.spot(seat, spot), cents, source=self.chips.stack(seat),
                             sink=self.chips.stack(seat))
        self.report()

    def hand(self, mistake: str | None = None) -> Outcome:
        """Deal one hand, making ``mistake`` where it can be made (or none); the outcome of it."""
        self.mistake = mistake
        self._spoilt = None
        self.outcome = Outcome(mistake or "", self.setup.name)
        start_alerts = len(self.events)
        start_refusals = len(self.refusals)
        if self.table.phase == "betting":
            self.open_hand()
        self.play()
        self.settle()
        outcome = self.outcome
        outcome.ledger_equal = self.ledger_equal()
        if mistake is None:
            raised = self.events[start_alerts:]
            refused = self.refusals[start_refusals:]
            alerts = [e["data"] for e in raised if e["type"] == "alert"]
            if alerts or refused:
                raise ModelError(f"a hand dealt right raised {alerts} and refusals {refused}")
            if not outcome.ledger_equal:
                raise ModelError(f"a hand dealt right: the table's account {self.account()} is not the "
                                 f"physical table's {self.physical()}")
        return outcome

    def top_up(self) -> None:
        """A game of stacks, between hands: a player short of chips buys more (``top_up``), one
        who lost the stack sits down again (``buy_in``)."""
        setup = self.setup
        stacks = self.table.state.session[Stacks].stacks
        for seat in sorted(self.players):
            stack = stacks.get(seat)
            if stack is None or stack < setup.least:       # a stack that went to 0 was cashed out
                cents = self.rng.choice(setup.refill)
                command = "buy_in" if stack is None else "top_up"
                refused = self.table.command(command, {"seat": seat, "amount": cents})
                if refused is not None:
                    raise ModelError(f"{command} refused: {refused}")
                self.chips.buy(seat, cents)

    def open_hand(self) -> None:
        """A new shoe if it is time, the players short of chips topped up, the bets, DEAL."""
        if self.setup.stacks:
            self.top_up()
        shoe = self.table.state.shoe
        if shoe.shoe_id is None or shoe.cut_card_out or len(self.shoe) - self.index < 40:
            self.load_shoe()
        self.bet()
        if self.mistake == "unplug_shoe" and self.rng.random() < 0.3 and self._may_inject(True):
            self.unplug("shoe")
            self._pending_replug = 1
        self.press_deal()

    def close_outcome(self) -> Outcome:
        """The outcome of the last hand: once a mistake was made, what the table said up to the
        next hand's DEAL (its bets placed and DEAL pressed)."""
        outcome = self.outcome
        assert outcome is not None
        self.mistake = None
        if outcome.injected:
            self.open_hand()
            outcome.alerts = [e["data"] for e in self.events[self._marked:] if e["type"] == "alert"]
            outcome.refusals = self.refusals[self._refused_mark:]
        return outcome

    def press_deal(self) -> None:
        double = self.mistake == "double_deal" and self._may_inject()
        self.press("deal")
        if double:
            self.press("deal")
        self.tick()

    def play(self) -> None:
        """Decisions until the hand is settled."""
        for _ in range(400):
            self.tidy()
            if self.table.phase != "in_hand":
                return
            decision = self.table.decision()
            assert decision is not None
            self.maybe_mid_hand(decision)
            if self.table.phase != "in_hand":
                return
            choices = sorted(set(decision.actions) - SKIPPED_ACTIONS)
            if decision.card is not None and (not choices or self.rng.random() < 0.45):
                self.draw()
                self.tick()
                continue
            if not choices:
                raise ModelError(f"nothing to do: {decision}")
            action = self.rng.choice(choices)
            self.act(decision, action)
            self.tick()
        raise ModelError("the hand did not end")

    def act(self, decision: Decision, action: str) -> None:
        option = decision.actions[action]
        amount: int | None = None
        if option.low is not None:
            high = option.high if option.high is not None else option.low * 2
            amount = self.rng.choice(sorted({option.low, high, (option.low + high) // 200 * 100}
                                            - {0} if option.low else {option.low, high}))
            amount = max(option.low, min(high, amount))
            if option.spot is not None and decision.seat is not None:
                stack = self.chips.stack(decision.seat)
                pile = self.chips.spot(decision.seat, option.spot)
                amount = min(amount, self.chips.worth(pile) + self.chips.worth(stack))
                if amount < option.low:
                    amount = option.low
                self.chips.bring(pile, amount, source=stack, sink=stack)
                self.report()
                amount = None
        double = self.mistake == "double_action" and action != "next" and self._may_inject()
        taken = self.press(action, amount)
        if taken is not None and not (self.outcome is not None and self.outcome.injected):
            raise ModelError(f"{action} refused: {taken}")
        if double:
            self.press(action, amount, soon=True)

    def maybe_mid_hand(self, decision: Decision) -> None:
        """The mistakes made while the hand is in play."""
        kind = self.mistake
        if kind is None or self.outcome is None or self.outcome.injected:
            return
        hand = self.table.state.hand
        assert hand is not None
        others = sorted(key for key, cents in hand.committed().items()
                        if cents > 0 and key[0] != decision.seat
                        and (kind != "add_chips" or self.chips.worth(self.chips.stack(key[0])) >= 100))
        if kind in ("add_chips", "remove_chips") and others and self._may_inject():
            seat, spot = self.rng.choice(others)
            pile = self.chips.spot(seat, spot)
            taken: list[Chip] = []
            if kind == "add_chips":
                self.chips.move(self.chips.stack(seat), pile, 100)
            else:
                self.chips.move(pile, self.chips.aside, min(100, self.chips.worth(pile)))
            self.report()
            if kind == "add_chips":                              # told, the player takes it back
                self.chips.move(pile, self.chips.stack(seat), 100)
            else:
                self.chips.move(self.chips.aside, pile, self.chips.worth(self.chips.aside))
            del taken
            self.report()
        elif kind == "extra_card" and decision.card is None and self._may_inject():
            self.draw()                                         # put aside, as the alert says
        elif kind in ("unplug_reader", "unplug_shoe") and self._may_inject():
            self.unplug("rfid" if kind == "unplug_reader" else "shoe")
            self._pending_replug = self.rng.randint(1, 3)

    # -- settlement ---------------------------------------------------------------------

    def settle(self) -> None:
        """Pay and collect what the table asks, NEXT, and the players take their chips back."""
        if self.table.phase != "settled":
            raise ModelError(f"no hand to settle: {self.refusals[-3:]}")
        kind = self.mistake
        if kind == "extra_card" and self._may_inject(always=True):
            self.draw()
        if kind == "unplug_reader_paid" and self._may_inject(always=True):
            self.unplug("rfid")
        if kind == "unplug_shoe" and self._may_inject(always=True):
            self.unplug("shoe")
        early = kind == "next_early" and self.unsettled() and self._may_inject(always=True)
        if early:
            self.press_next()
        if self.house:
            self.pay_house()
        else:
            self.pay_stacks()
        if not early or self.table.phase == "settled":        # NEXT again once told to pay first
            self.press_next()
        if kind == "unplug_reader_paid" or kind == "unplug_shoe":
            self.replug()
        for seat, pile in sorted(self.chips.spots.items()):      # the players take their chips
            if seat[0] in self.players or self.house:
                owner = self.chips.stack(seat[0])
                self.chips.move(pile, owner, self.chips.worth(pile))
        self.report()

    def press_next(self) -> None:
        double = self.mistake == "double_deal" and self._may_inject()
        self.press("next")
        if double:
            self.press("next")

    def unsettled(self) -> bool:
        """Whether anything is left to pay or collect (NEXT pressed now is early): a spot the
        house banks not paid or collected yet, or a pot game's last bets still on the spots."""
        if self.house:
            return any(self.chips.worth(self.chips.spot(*key)) != cents
                       for key, cents in self.table.payout_checks().items())
        if not self.setup.pot:             # NEXT moves the stacks the table keeps: nothing is due on a spot
            return False
        return any(self.chips.worth(pile) for pile in self.chips.spots.values())

    def pay_house(self) -> None:
        """The house pays and collects every spot the table checks, from and into the tray."""
        checks = self.table.payout_checks()
        results = {(r.seat, r.spot): r for r in self.table.state.results or ()}
        kind = self.mistake
        held = {key: self.chips.worth(self.chips.spot(*key)) for key in checks}
        winners = sorted(key for key, cents in checks.items() if cents > held[key])
        losers = sorted(key for key, cents in checks.items() if cents == 0 and held[key])
        spoilt: tuple[int, str] | None = None
        if kind in ("underpay", "overpay", "wrong_seat", "collect_winning") and winners:
            spoilt = self.rng.choice(winners)
        elif kind == "leave_losing" and losers:
            spoilt = self.rng.choice(losers)
        if spoilt is not None and not self._may_inject(always=True):
            spoilt = None
        for key, cents in sorted(checks.items()):
            target = cents
            if key == spoilt:
                now = self.chips.worth(self.chips.spot(*key))
                if kind == "wrong_seat":
                    empty = self.empty_spot(key)
                    self.chips.move(self.chips.tray, self.chips.spot(*empty), cents - now)
                    target = now
                else:
                    target = self._mispaid(key, now, cents)
            self.chips.bring(self.chips.spot(*key), target, source=self.chips.tray, sink=self.chips.tray)
            self.report()
        del results

    def empty_spot(self, beside: tuple[int, str]) -> tuple[int, str]:
        """The main spot of the empty seat nearest ``beside``."""
        playing = {seat for seat, _ in self.table.payout_checks()}
        seat = min((s for s in range(1, 7) if s not in playing), key=lambda s: (abs(s - beside[0]), s))
        return (seat, "main")

    def pay_stacks(self) -> None:
        """A game of stacks: every chip on the spots into the middle, then each stack brought to
        what NEXT will make it (the middle paying, or taking in), the rest to the drop box."""
        state = self.table.state
        targets = dict(state.session[Stacks].stacks)
        for change in stack_changes(self.table):
            targets[change.seat] = change.stack
        for pile in self.chips.spots.values():
            self.chips.move(pile, self.chips.pot, self.chips.worth(pile))
        self.report()
        for seat, target in sorted(targets.items()):
            stack = self.chips.stack(seat)
            if self.chips.worth(stack) > target:
                self.chips.move(stack, self.chips.pot, self.chips.worth(stack) - target)
        for seat, target in sorted(targets.items()):
            stack = self.chips.stack(seat)
            short = target - self.chips.worth(stack)
            if short > 0:
                self.chips.move(self.chips.pot, stack, min(short, self.chips.worth(self.chips.pot)))
        self.chips.move(self.chips.pot, self.chips.drop, self.chips.worth(self.chips.pot))

    # -- the two accounts ---------------------------------------------------------------

    def account(self) -> dict[str, Any]:
        """Where the table says the chips are between hands: the tray's reading, each spot's, each
        stack and the drop box's rake."""
        state = self.table.state
        return {"tray": state.tray.amount,
                "spots": {key: w.amount for key, w in sorted(self.table.live_spots.items()) if w.amount},
                "stacks": dict(sorted(state.session[Stacks].stacks.items())),
                "drop": self.table.ledger().drop}

    def physical(self) -> dict[str, Any]:
        """The same, counted on the physical table."""
        stacks = self.table.state.session[Stacks].stacks
        return {"tray": self.chips.worth(self.chips.tray),
                "spots": {key: self.chips.worth(p) for key, p in sorted(self.chips.spots.items())
                          if self.chips.worth(p)},
                "stacks": {seat: self.chips.worth(self.chips.stack(seat)) for seat in sorted(stacks)},
                "drop": self.chips.worth(self.chips.drop)}

    def ledger_equal(self) -> bool:
        return self.account() == self.physical()


def outcome_of(found: Outcome) -> str:
    """The outcome of a mistake in the catalogue's words (``caught``, ``missed``, ``stale``)."""
    from tests.model.catalogue import NAMES
    named = set(found.codes) & NAMES[found.kind]
    caught = bool(named) or bool(found.refusals) or (not NAMES[found.kind] and bool(found.alerts))
    if not caught:
        return "missed"
    if found.kind.startswith("unplug") and set(found.codes) - NAMES[found.kind]:
        return "stale"
    return "caught"


def deal(folder: Path, game: str, seed: int, mistake: str | None, before: int = 1,
         tries: int = 6) -> Iterable[Outcome]:
    """A table of ``game``: ``before`` hands dealt right, then hands with ``mistake`` until it is
    made (at most ``tries``), then the next deal; yields the outcome of each hand."""
    model = Model(folder, game, random.Random(seed))
    for _ in range(before):
        yield model.hand(None)
    if mistake is None:
        return
    for _ in range(tries):
        model.hand(mistake)
        outcome = model.close_outcome()
        yield outcome
        if outcome.injected:
            return
