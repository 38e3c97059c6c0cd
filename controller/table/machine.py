"""The table state machine: driver inputs in, pit events out.

The machine is declared as a table (:data:`TRANSITIONS`) and run by
``transitions`` with ``auto_transitions=False`` and ``queued=True``. Its states
are the phases a dealer sees::

    betting --deal--> dealing --advance--> players --advance--> dealer --advance--> settled --next--> betting
                         \\________________ void (any phase of a hand in play) _______________/--> betting

Cards, ``stand`` and the other inputs of a hand are internal transitions; after
each, ``advance`` moves the machine to the phase the game's hand is now in.
The game decides everything about cards and money; this module decides what
the table does with the inputs (refusals, alerts, betting, hand numbers) and
emits every change as a pit event through :class:`controller.table.state.TableState`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from transitions import Machine

from controller.journal.log import Record
from controller.pit.events import encode_event
from controller.table import shoe_checks
from controller.table.chip_checks import CHIP_ALERT_CODES, chip_alerts
from controller.table.state import TableState
from drivers.inputs import (
    ButtonPressed,
    CardDrawn,
    CardUnreadable,
    CutCard,
    DeviceFault,
    DeviceOffline,
    DeviceOnline,
    DeviceStatus,
    DriverInput,
    ShoeLoaded,
    SpotWager,
)
from drivers.repeat_log import RepeatLog

STATES = ["betting", "dealing", "players", "dealer", "settled"]
IN_HAND = ["dealing", "players", "dealer"]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "deal", "source": "betting", "dest": "dealing", "conditions": "deal_allowed",
     "after": "start_hand"},
    {"trigger": "card", "source": IN_HAND, "dest": None, "conditions": "card_wanted",
     "after": "deal_card"},
    {"trigger": "stand", "source": "players", "dest": None, "conditions": "stand_allowed",
     "after": "stand_seat"},
    {"trigger": "advance", "source": "dealing", "dest": "players", "conditions": "game_in_players"},
    {"trigger": "advance", "source": ["dealing", "players"], "dest": "dealer",
     "conditions": "game_in_dealer"},
    {"trigger": "advance", "source": IN_HAND, "dest": "settled", "conditions": "game_complete"},
    {"trigger": "next", "source": "settled", "dest": "betting", "after": "end_hand"},
    {"trigger": "void", "source": IN_HAND, "dest": "betting", "after": "void_hand"},
]
"""The table's phases and what moves between them, in the order they are tried."""

BUTTON_TRIGGERS = {"deal": "deal", "stand": "stand", "next": "next", "void": "void"}
"""Dealer button name -> machine trigger (for the buttons this table's games use)."""

STATUS_FLAGS = {
    "shoe": ("lid open", "shoe empty", "optical sensor fault"),
    "rfid": ("antenna fault", "RF field fault", "too many chips on a spot"),
}
"""What each STATUS flag bit means, by board (io-protocol.md section 3)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableSettings:
    """What the table needs of its configuration."""

    table_id: str
    game_name: str
    seats: int
    limits: Mapping[str, int]
    buttons: tuple[str, ...]
    decks: int


Clock = Callable[[], str]
"""Returns the timestamp of an event being emitted (pit format, UTC with milliseconds)."""


class Table:
    """One table: the machine, its state, and the path every event takes.

    ``write`` journals a record durably (it returns only after fsync); ``publish``
    sends ``(topic, body)`` to the pit. Every event is written, then applied to
    :attr:`state`, then published: durable before visible.
    """

    # Triggers that ``transitions`` adds to the model (declared for type checkers only).
    deal: Callable[[], bool]
    card: Callable[[CardDrawn], bool]
    stand: Callable[[], bool]
    advance: Callable[[], bool]
    next: Callable[[], bool]
    void: Callable[[], bool]
    may_card: Callable[[CardDrawn], bool]
    may_deal: Callable[[], bool]
    may_stand: Callable[[], bool]
    may_next: Callable[[], bool]
    may_void: Callable[[], bool]

    def __init__(
        self,
        settings: TableSettings,
        game: Any,
        *,
        clock: Clock,
        write: Callable[[Record], None],
        publish: Callable[[bytes, bytes], None] | None = None,
        epoch: int | None = None,
    ) -> None:
        self.settings = settings
        self.epoch = epoch
        """The epoch every event is published in (see :mod:`controller.journal.high_water`)."""
        self.state = TableState(game=game)
        self._clock = clock
        self._write = write
        self._publish = publish
        self.notice: str | None = None
        """The last refusal or problem to show the dealer (cleared by the next accepted input)."""
        self.live_spots: dict[tuple[int, str], SpotWager] = {}
        self.device_status: dict[str, tuple[str, ...]] = {}
        """Each board's STATUS flags in words (live, not journaled: boards repeat them every second)."""
        self.phase: str = "betting"
        """The machine's phase (``betting``, ``dealing``, ``players``, ``dealer``, ``settled``);
        ``transitions`` keeps it here."""
        self._flagged_chips: set[tuple[int, str]] = set()
        self.repeats = RepeatLog(log)
        """The log of inputs dropped without an event (a card reported again, a refusal already alerted)."""
        self.machine = Machine(
            model=self,
            states=STATES,
            transitions=TRANSITIONS,
            initial="betting",
            auto_transitions=False,
            queued=True,
            model_attribute="phase",
        )

    # -- the event path ---------------------------------------------------------

    def set_publisher(self, publish: Callable[[bytes, bytes], None]) -> None:
        """Where events go after they are journaled (the pit's publish socket)."""
        self._publish = publish

    def recover(self, records: Iterable[Record], checkpoint: dict[str, Any] | None = None) -> int:
        """Apply journaled records again after a restart, publishing nothing; returns how many.

        With a ``checkpoint`` (:meth:`TableState.checkpoint`), start from that state and
        apply only the records after it.
        """
        if checkpoint is not None:
            self.state = TableState.from_checkpoint(self.state.game, checkpoint)
        count = 0
        for record in records:
            self.state.apply(record)
            count += 1
        self.machine.set_state(self._phase_of_state())
        return count

    def open(self, *, recovered: bool, journal_damage: str | None = None) -> None:
        """Announce the table (``table.opened``), report journal damage, finish a step a crash cut short."""
        settings = self.settings
        self._emit("table.opened", {
            "game": settings.game_name, "seats": settings.seats, "limits": dict(settings.limits),
            "recovered": recovered,
        })
        if journal_damage is not None:
            self._alert("journal_corrupt", "critical", journal_damage)
        self._flush()
        self.advance_if_in_hand()

    def integrity_alerts(self, problems: Iterable[str]) -> None:
        """One ``software_integrity`` alert per installed file that does not match its manifest."""
        for problem in problems:
            self._alert("software_integrity", "critical", f"installed software: {problem}")

    def _emit(self, kind: str, data: Mapping[str, Any], private: Mapping[str, Any] | None = None,
              *, hand: str | int | None = "auto") -> None:
        number = self._hand_for(kind, data) if hand == "auto" else hand
        assert number is None or isinstance(number, int)
        seq = self.state.seq + 1
        topic, body = encode_event(self.settings.table_id, seq, self._clock(), kind, number, data,
                                   epoch=self.epoch)
        record = Record(seq=seq, topic=topic.decode(), body=body, private=dict(private or {}))
        self._write(record)
        self.state.apply(record)
        if self._publish is not None:
            self._publish(topic, body)

    def _flush(self) -> None:
        """Emit the events that the last one implies (see :attr:`TableState.pending`)."""
        while self.state.pending:
            kind, data, private = self.state.pending[0]
            self._emit(kind, data, private)

    def _hand_for(self, kind: str, data: Mapping[str, Any]) -> int | None:
        if kind.startswith(("device.", "shoe.", "table.")):
            return None
        if self.state.in_hand:
            return self.state.hand_no
        if kind == "bet.placed" or data.get("code") in CHIP_ALERT_CODES:
            return self.state.hand_no + 1
        return None

    def _alert(self, code: str, severity: str, message: str, **about: Any) -> None:
        private = about.pop("private", None)
        self._emit("alert", {"code": code, "severity": severity, "message": message, **about}, private)

    def _phase_of_state(self) -> str:
        state = self.state
        if not state.in_hand:
            return "betting"
        if state.settled:
            return "settled"
        if state.hand is None:
            return "dealing"
        phase: str = state.hand.phase
        return "settled" if phase == "complete" else phase

    def advance_if_in_hand(self) -> None:
        """Move the machine to the phase the hand is in (after recovery or a step)."""
        if self.phase in IN_HAND:
            self.advance()

    # -- inputs -----------------------------------------------------------------

    def handle(self, item: DriverInput) -> None:
        """Take one input from a driver."""
        if isinstance(item, ButtonPressed):
            self.press(item.name)
        elif isinstance(item, CardDrawn):
            self._on_card(item)
        elif isinstance(item, SpotWager):
            self._on_spot(item)
        elif isinstance(item, CardUnreadable):
            self._on_unreadable(item)
        elif isinstance(item, ShoeLoaded):
            if item.shoe_id != self.state.shoe.shoe_id:
                self._emit("shoe.loaded", {"shoe_id": item.shoe_id, "decks": item.decks})
            else:
                self.repeats.note(("shoe loaded again", item.shoe_id), logging.INFO,
                                  f"shoe {item.shoe_id} loaded again (a resend): the shoe goes on as it was")
        elif isinstance(item, CutCard):
            if item.shoe_id == self.state.shoe.shoe_id and not self.state.shoe.cut_card_out:
                self._emit("shoe.cut_card", {"index": item.index})
            else:
                self.repeats.note(("cut card", item.shoe_id), logging.INFO, f"cut card of shoe "
                                  f"{item.shoe_id} ignored: not the loaded shoe, or out already")
        elif isinstance(item, DeviceOnline):
            self._emit("device.online", {"device": item.device, "firmware": item.firmware,
                                         "serial": item.serial})
        elif isinstance(item, DeviceOffline):
            self._on_offline(item)
        elif isinstance(item, DeviceFault):
            self._alert("device_fault", "warning", f"{item.device} fault {item.code}: {item.text}",
                        device=item.device, fault=item.code)
        elif isinstance(item, DeviceStatus):
            names = STATUS_FLAGS[item.device]
            self.device_status[item.device] = tuple(
                name for bit, name in enumerate(names) if item.flags & (1 << bit))

    def press(self, button: str) -> str | None:
        """Press a dealer button; returns None if it was taken, else why not (also in :attr:`notice`)."""
        if button not in self.settings.buttons:
            return self._refuse(f"there is no {button!r} button at this table")
        reason = self.refusal(button)
        if reason is not None:
            return self._refuse(f"{button}: {reason}")
        self.notice = None
        getattr(self, BUTTON_TRIGGERS[button])()
        return None

    def _refuse(self, reason: str) -> str:
        self.notice = reason
        return reason

    def refusal(self, button: str) -> str | None:
        """Why pressing ``button`` is not allowed now, or None if it is.

        Whether it is allowed is the machine's answer (``may_<trigger>``, from
        :data:`TRANSITIONS`); this adds the words for the dealer.
        """
        trigger = BUTTON_TRIGGERS.get(button)
        if trigger is None:
            return "this game does not use that button"
        if getattr(self, f"may_{trigger}")():
            return None
        if button == "deal":
            return "; ".join(self.deal_problems()) if self.phase == "betting" else "a hand is already in play"
        if button == "stand":
            return "the seat in turn cannot stand" if self.phase == "players" else "no seat is playing now"
        if button == "next":
            return "the hand is not settled yet"
        return "no hand is in play"

    def live_buttons(self) -> tuple[str, ...]:
        """The configured buttons that may be pressed now (their lights are on)."""
        return tuple(b for b in self.settings.buttons if b in BUTTON_TRIGGERS and self.refusal(b) is None)

    def seat_in_turn(self) -> int | None:
        """The seat whose decision the table waits for, if any."""
        if self.phase != "players" or self.state.hand is None:
            return None
        seat: int | None = self.state.hand.turn
        return seat

    def deal_problems(self) -> list[str]:
        """Why a deal cannot start now (empty when it can)."""
        problems: list[str] = []
        devices = self.state.devices
        for name in ("shoe", "rfid"):
            if not devices[name].online:
                problems.append(f"the {name} is offline")
        shoe = self.state.shoe
        if shoe.shoe_id is None:
            problems.append("the shoe is not loaded")
        elif shoe.cut_card_out:
            problems.append("the cut card is out: load a new shoe")
        elif shoe.decks != self.settings.decks:
            problems.append(f"the shoe holds {shoe.decks} decks, the game is set for {self.settings.decks}")
        by_seat: dict[int, dict[str, int]] = {}
        for (seat, spot), amount in self.state.bets.items():
            by_seat.setdefault(seat, {})[spot] = amount
        problems.extend(self.state.game.bet_problems(by_seat))
        for (seat, spot), wager in sorted(self.live_spots.items()):
            if not wager.complete:
                problems.append(f"seat {seat} {spot} holds more chips than the reader can count: "
                                "colour up to larger chips")
        return problems

    # -- conditions (named in TRANSITIONS) --------------------------------------

    def deal_allowed(self, *args: Any) -> bool:
        """Condition of ``deal``: nothing stands in the way of a deal (:meth:`deal_problems`)."""
        return not self.deal_problems()

    def card_wanted(self, *args: Any) -> bool:
        """Condition of ``card``: the hand in play takes the next card from the shoe."""
        return self.state.hand is not None and bool(self.state.hand.can_deal())

    def stand_allowed(self, *args: Any) -> bool:
        """Condition of ``stand``: the seat in turn may stand."""
        return self.state.hand is not None and bool(self.state.hand.can_stand())

    def game_in_players(self) -> bool:
        """Condition of ``advance`` to ``players``: the hand waits for a seat's decision."""
        return self.state.hand is not None and self.state.hand.phase == "players"

    def game_in_dealer(self) -> bool:
        """Condition of ``advance`` to ``dealer``: the cards now go to the dealer."""
        return self.state.hand is not None and self.state.hand.phase == "dealer"

    def game_complete(self) -> bool:
        """Condition of ``advance`` to ``settled``: the hand has its results."""
        return self.state.settled

    # -- actions (named in TRANSITIONS) -----------------------------------------

    def start_hand(self) -> None:
        """After ``deal``: ``hand.started`` (then ``bets.closed``) with the next hand number."""
        seats = sorted({seat for (seat, spot) in self.state.bets if spot == "main"})
        self._emit("hand.started", {"seats": seats, "dealer_seat": None}, hand=self.state.hand_no + 1)
        self._flush()
        self.advance()

    def deal_card(self, drawn: CardDrawn) -> None:
        """After ``card``: ``card.dealt`` to where the game says, and whatever it brings about."""
        target = self.state.hand.next_target()
        card = str(drawn.card)
        data = {"index": drawn.index, "to": target.to, "seat": target.seat,
                "hand_index": target.hand_index, "card": card if target.face_up else None,
                "face_up": target.face_up}
        self._emit("card.dealt", data, None if target.face_up else {"card": card})
        self._flush()
        self.advance()

    def stand_seat(self) -> None:
        """After ``stand``: the seat in turn stands (``player.action``), and what follows."""
        hand = self.state.hand
        self._emit("player.action", {"seat": hand.turn, "hand_index": 0, "action": "stand"})
        self._flush()
        self.advance()

    def end_hand(self) -> None:
        """After ``next``: ``hand.ended``; betting opens with the spots as they are now."""
        self._emit("hand.ended", {"hand": self.state.hand_no})
        self._sync_bets()

    def void_hand(self) -> None:
        """After ``void``: ``hand.voided``; nothing is settled; betting opens."""
        self._emit("hand.voided", {"reason": "voided by the dealer"})
        self._sync_bets()

    # -- cards ------------------------------------------------------------------

    def _on_card(self, drawn: CardDrawn) -> None:
        shoe = self.state.shoe
        if shoe.shoe_id is None or drawn.shoe_id != shoe.shoe_id:
            self._unknown_shoe(drawn.shoe_id, drawn.index)
            return
        card = str(drawn.card)
        if not self._plausible(drawn.index, card):
            return
        self._check_gap(drawn.index)
        taken = self.may_card(drawn)
        if shoe.seen[card] >= shoe.decks:
            # A card dealt face down is not named before the event that reveals it (pit-events.md
            # section 1); its identity stays in the journal's private part.
            target = self.state.hand.next_target() if taken else None
            named = {} if target is not None and not target.face_up else {"card": card}
            self._alert("card_over_count", "critical",
                        f"card {drawn.index}{' ' + card if named else ''}: more copies than "
                        f"{shoe.decks} decks hold", index=drawn.index, **named)
        if taken:
            self.notice = None
            self.card(drawn)
            return
        self._alert("card_out_of_turn", "warning",
                    f"card {drawn.index} was drawn when no hand may take one: put it aside",
                    index=drawn.index, private={"card": card})

    def _on_unreadable(self, item: CardUnreadable) -> None:
        shoe = self.state.shoe
        if shoe.shoe_id is None or item.shoe_id != shoe.shoe_id:
            self._unknown_shoe(item.shoe_id, item.index)
            return
        if not self._plausible(item.index, None):
            return
        self._check_gap(item.index)
        self._alert("card_unreadable", "warning",
                    f"card {item.index} could not be read: put it aside and draw again",
                    index=item.index)

    def _plausible(self, index: int, card: str | None) -> bool:
        """Whether a report of the loaded shoe is a new card (:func:`shoe_checks.check_card`). A refused
        one raises ``card_implausible`` (once; then it is logged) and a repeat is logged: neither changes
        the shoe's state."""
        shoe = self.state.shoe
        verdict = shoe_checks.check_card(shoe, index, card)
        if verdict.take:
            return True
        alert = shoe_checks.refusal_alert(shoe, index, card, verdict) if verdict.refused else None
        if alert is not None:
            self._alert(**alert)
        else:
            self.repeats.note((verdict.reason, shoe.shoe_id), logging.WARNING if verdict.refused else
                              logging.INFO, f"shoe {shoe.shoe_id}: {verdict.words}: ignored")
        return False

    def resync_shoe(self, supervisor: str) -> str | None:
        """A supervisor's ``shoe_resync``: the loaded shoe's next card may come at any index ahead (a
        ``shoe_resync`` alert records it); returns None, or why not."""
        alert = shoe_checks.resync_alert(self.state.shoe, supervisor)
        if isinstance(alert, str):
            return self._refuse(alert)
        self._alert(**alert)
        return None

    def _unknown_shoe(self, shoe_id: int, index: int) -> None:
        """A card from a shoe the table never saw loaded: an alert, and the loaded shoe's count of
        cards drawn is left alone (the alert carries no ``index`` of it)."""
        self._alert("card_out_of_turn", "critical",
                    f"card {index} came from shoe {shoe_id}, which was never loaded: put it aside "
                    "and load the shoe again", shoe_id=shoe_id)

    def _check_gap(self, index: int) -> None:
        """A critical ``card_gap`` if cards left the shoe unseen before the one at ``index``."""
        last_index = self.state.shoe.last_index
        if index > last_index + 1:
            first, last = last_index + 1, index - 1
            self._alert("card_gap", "critical",
                        f"cards {first} to {last} left the shoe unseen: check the table, void if needed",
                        index=first, last_index=last)

    # -- bets and chips -----------------------------------------------------------

    def _on_spot(self, wager: SpotWager) -> None:
        key = (wager.seat, wager.spot)
        previous = self.live_spots.get(key)
        self.live_spots[key] = wager
        self._check_chips(wager)
        if self.state.in_hand:
            if not self.state.settled and (previous is None or previous.amount != wager.amount):
                self._check_past_post(wager)
            return
        self._sync_bets()

    def _check_chips(self, wager: SpotWager) -> None:
        alerts, self._flagged_chips = chip_alerts(wager, self._flagged_chips)
        for alert in alerts:
            self._alert(**alert)

    def _check_past_post(self, wager: SpotWager) -> None:
        closed = (self.state.closed_bets or {}).get((wager.seat, wager.spot), 0)
        if wager.amount != closed:
            self._alert("past_post", "critical",
                        f"seat {wager.seat} {wager.spot} changed from {closed} to {wager.amount} "
                        "cents after bets closed", seat=wager.seat, spot=wager.spot,
                        amount=wager.amount, closed=closed)

    def _sync_bets(self) -> None:
        """While betting is open, publish every spot whose reading differs from its published wager."""
        for (seat, spot), wager in sorted(self.live_spots.items()):
            if wager.amount != self.state.bets.get((seat, spot), 0):
                self._emit("bet.placed", {"seat": seat, "spot": spot, "amount": wager.amount})

    # -- devices -------------------------------------------------------------------

    def _on_offline(self, item: DeviceOffline) -> None:
        if not self.state.devices[item.device].online:
            return
        self._emit("device.offline", {"device": item.device, "reason": item.reason})
        waiting = " The hand waits until it is back." if self.phase in IN_HAND else ""
        self._alert("device_offline", "critical" if waiting else "warning",
                    f"the {item.device} is offline: {item.reason}.{waiting}", device=item.device)
