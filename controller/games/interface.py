"""The one typed interface between the table and every game.

A game is a pure package: a frozen rules object, a :class:`Game` bound to the
rules and the table limits, and a frozen :class:`Hand` state. The table asks a
hand one question, :meth:`Hand.decision`: who must decide now, which actions
they may take with which amounts, and where the next card from the shoe goes.
Every action is ``verify`` (raise :class:`RuleError` in a dealer's words),
``can`` (a bool) and ``act`` (the new hand and the events it caused), as in
pokerkit. Every change is a small frozen :data:`GameEvent`; each maps one to one
onto a pit event (:mod:`controller.table.pit_events`).

What outlives a hand (seat stacks, the button or player-dealer seat, a
tournament level, progressive meters) is the :class:`Session`. It changes only
through :data:`SessionEvent` records, applied by :meth:`Session.apply`, so the
journal alone rebuilds it; Easy Jack leaves it empty.

Money is integer cents. No clock, no randomness, no I/O anywhere in a game.

>>> session = Session().apply(StackChanged(seat=2, amount=10_000, reason="buy_in"))
>>> session.stack(2), session.stack(3)
(10000, 0)
>>> Option(low=400, high=2000, spot="bet").allows(500), Option().allows(None)
(True, True)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Generic, Literal, Protocol, TypeVar

from firmware_bridge.cards import Card

# -- what the table gives a game ------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    """The table's wager limits in cents, both inclusive."""

    min_bet: int
    max_bet: int


Bets = Mapping[int, Mapping[str, int]]
"""Wagers on the layout: seat -> spot name -> cents (spots with 0 may be absent)."""


class RuleError(ValueError):
    """An action that the rules do not allow now; the message says why, in words for a dealer."""


class Rules(Protocol):
    """What the table needs of any game's rules object (a frozen dataclass of ``[game]`` options)."""

    def problems(self) -> list[str]:
        """Every wrong option, one line each (``game.<key>: <what is wrong>``); empty when all is well."""
        ...


# -- where cards go and what may be decided ---------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """Where the next card from the shoe goes: a seat's hand or the dealer's, face up or down.

    ``seat`` is the seat of a seat's hand, or the player-dealer's seat for the
    dealer's hand in games where a player banks (None for the house).
    """

    to: Literal["seat", "dealer"]
    seat: int | None
    hand_index: int
    face_up: bool


@dataclass(frozen=True)
class Option:
    """One action allowed now, and the amount it takes.

    ``low``/``high`` bound the amount in cents, both inclusive (None: the
    action takes no amount). ``spot`` names the seat's spot whose chips carry
    the amount: the amount is then what the spot must hold once the action is
    taken, and the table reads it from the RFID spot; None when the action
    moves no chips or its amount comes with the command.
    """

    low: int | None = None
    high: int | None = None
    spot: str | None = None

    def allows(self, amount: int | None) -> bool:
        """Whether ``amount`` is within this option's range (None where it takes none)."""
        if self.low is None:
            return amount is None
        return amount is not None and self.low <= amount <= (self.high if self.high is not None else amount)


@dataclass(frozen=True)
class Decision:
    """The one answer to "what now?" while a hand is in play.

    ``seat`` decides (None: the house dealer, or nobody while only a card is
    awaited), for its hand ``hand_index``; ``actions`` are the actions allowed
    now by name (a button or control command of the same name takes them);
    ``card`` is where a card drawn from the shoe now goes (None: no card may be
    drawn now); ``prompt`` tells the dealer what happens next, in the game's words.
    """

    seat: int | None
    hand_index: int
    actions: Mapping[str, Option]
    card: Target | None
    prompt: str


# -- what a game reports: one event per pit event -------------------------------------------------


@dataclass(frozen=True)
class Dealt:
    """A card went to ``target``; ``index`` is its index in the shoe (``card.dealt``)."""

    target: Target
    card: Card
    index: int


@dataclass(frozen=True)
class Revealed:
    """A face-down card (shoe ``index``) was turned face up (``card.revealed``)."""

    to: Literal["seat", "dealer"]
    seat: int | None
    hand_index: int
    card: Card
    index: int


@dataclass(frozen=True)
class Acted:
    """A seat (or the player-dealer) took an action on a hand, with its amount (``player.action``)."""

    seat: int
    hand_index: int
    action: str
    amount: int | None = None


@dataclass(frozen=True)
class WagerResult:
    """How one wager ended.

    ``outcome`` is "win", "lose", "push", "natural", "surrender", "fold" or "waiting" (a prize
    paid later, by its own event: a Blazing 7's jackpot);
    ``payout`` is the player's net result in cents: positive for a win,
    ``-wager`` for a loss, 0 for a push. ``label`` names a hand paid at its own
    odds, or says why a result differs from the plain one (a short-stack pull-back).
    """

    seat: int
    spot: str
    hand_index: int
    outcome: str
    wager: int
    payout: int
    label: str | None = None


@dataclass(frozen=True)
class Settled:
    """The hand's results are known: one per wager in play (``hand.settled``)."""

    results: tuple[WagerResult, ...]


@dataclass(frozen=True)
class Pot:
    """One pot: its amount in cents and the seats that may win it."""

    amount: int
    seats: tuple[int, ...]


@dataclass(frozen=True)
class PotsChanged:
    """A pot game's pots after bets were gathered (``pot``); ``rake`` is the house's take so far."""

    pots: tuple[Pot, ...]
    rake: int


@dataclass(frozen=True)
class PotAwarded:
    """Pot ``pot`` (its index) was paid at showdown: ``amount`` to each of ``seats`` (``pot.awarded``)."""

    pot: int
    seats: tuple[int, ...]
    amount: int
    rake: int


@dataclass(frozen=True)
class Alerted:
    """Something a pit boss must look at, raised by the rules (``alert``)."""

    code: str
    severity: Literal["info", "warning", "critical"]
    message: str
    seat: int | None = None


HandEvent = Dealt | Revealed | Acted | Settled | PotsChanged | PotAwarded | Alerted
"""An event of the hand in play."""


# -- the session: what outlives a hand ------------------------------------------------------------


@dataclass(frozen=True)
class StackChanged:
    """Seat ``seat``'s stack is now ``amount`` cents (``seat.stack``).

    ``reason`` is ``buy_in``, ``rebuy``, ``result`` or ``cash_out``.
    """

    seat: int
    amount: int
    reason: str


@dataclass(frozen=True)
class ButtonMoved:
    """The dealer button, or the player-dealer position, is now at ``seat`` (``button.moved``)."""

    seat: int | None


@dataclass(frozen=True)
class LevelStarted:
    """Tournament ``level`` starts with these ``blinds`` (cents) until ``ends_at`` (``tournament.level``)."""

    level: int
    blinds: tuple[int, ...]
    ends_at: str


@dataclass(frozen=True)
class PlayerEliminated:
    """A tournament player reached zero and finished in ``place`` (``player.eliminated``)."""

    seat: int
    place: int


@dataclass(frozen=True)
class TournamentEnded:
    """One player is left: ``seat`` wins the table (``tournament.ended``)."""

    seat: int


@dataclass(frozen=True)
class MeterChanged:
    """Meter ``name`` (a progressive jackpot) now reads ``value`` cents (``meter``)."""

    name: str
    value: int


@dataclass(frozen=True)
class ProgressiveHit:
    """A progressive prize was won and waits for a supervisor (``progressive.hit``)."""

    seat: int
    hand_index: int
    prize: str
    amount: int


@dataclass(frozen=True)
class ProgressivePaid:
    """A supervisor confirmed the progressive prize of ``seat`` (``progressive.paid``)."""

    seat: int
    amount: int
    supervisor: str


SessionEvent = (
    StackChanged | ButtonMoved | LevelStarted | PlayerEliminated | TournamentEnded | MeterChanged
    | ProgressiveHit | ProgressivePaid
)
"""An event of the session."""

GameEvent = HandEvent | SessionEvent
"""Any event a game returns."""

RECENT_HITS = 25
"""Progressive hits the session remembers (``table-controller progressive`` lists them)."""

SEAT_WRAP = 1000
"""More than any table has seats: clockwise distances between seats are taken modulo this."""


@dataclass(frozen=True)
class Session:
    """What outlives a hand: pure, changed only by :meth:`apply`, part of every checkpoint.

    ``stacks`` maps a seat to the chips in front of it (cents; games where the
    table keeps stacks); ``button`` is the dealer button or player-dealer seat;
    ``level`` the tournament level (0: no tournament) with its ``blinds`` and
    ``level_ends_at``; ``places`` the seats eliminated and their places;
    ``winner`` the tournament's winner; ``meters`` the progressive meters;
    ``unpaid`` the progressive hits waiting for a supervisor, oldest first;
    ``hits`` the last :data:`RECENT_HITS` confirmed hits, newest last;
    ``waiting`` the seats that bought in while the game was under way (a
    button was set) and wait for the button to pass them, the card room's rule
    for joining a game with a moving button (a game that has no such rule
    ignores it). The button passes a seat when it moves onto it or over it
    clockwise (seat numbers rising, then wrapping round); a cash-out ends the wait.

    >>> session = Session(stacks={2: 500}, button=2).apply(StackChanged(5, 900, "buy_in"))
    >>> session.waiting, session.apply(ButtonMoved(3)).waiting, session.apply(ButtonMoved(1)).waiting
    ((5,), (5,), ())
    """

    stacks: Mapping[int, int] = field(default_factory=dict)
    button: int | None = None
    level: int = 0
    blinds: tuple[int, ...] = ()
    level_ends_at: str | None = None
    places: Mapping[int, int] = field(default_factory=dict)
    winner: int | None = None
    meters: Mapping[str, int] = field(default_factory=dict)
    unpaid: tuple[ProgressiveHit, ...] = ()
    hits: tuple[ProgressivePaid, ...] = ()
    waiting: tuple[int, ...] = ()

    def stack(self, seat: int) -> int:
        """The chips in front of ``seat`` (0 for a seat with none)."""
        return self.stacks.get(seat, 0)

    def apply(self, event: SessionEvent) -> Session:
        """The session after ``event``; other events leave it as it is."""
        if isinstance(event, StackChanged):
            stacks = {**self.stacks, event.seat: event.amount}
            waiting = self.waiting
            if event.amount == 0 and event.reason == "cash_out":
                del stacks[event.seat]
                waiting = tuple(seat for seat in waiting if seat != event.seat)
            elif event.reason == "buy_in" and self.button is not None and event.seat not in waiting:
                waiting = (*waiting, event.seat)
            return replace(self, stacks=stacks, waiting=waiting)
        if isinstance(event, ButtonMoved):
            return replace(self, button=event.seat, waiting=self._still_waiting(event.seat))
        if isinstance(event, LevelStarted):
            return replace(self, level=event.level, blinds=event.blinds, level_ends_at=event.ends_at)
        if isinstance(event, PlayerEliminated):
            return replace(self, places={**self.places, event.seat: event.place})
        if isinstance(event, TournamentEnded):
            return replace(self, winner=event.seat)
        if isinstance(event, MeterChanged):
            return replace(self, meters={**self.meters, event.name: event.value})
        if isinstance(event, ProgressiveHit):
            return replace(self, unpaid=(*self.unpaid, event))
        if isinstance(event, ProgressivePaid):
            unpaid = list(self.unpaid)
            for index, hit in enumerate(unpaid):
                if hit.seat == event.seat and hit.amount == event.amount:
                    del unpaid[index]
                    break
            return replace(self, unpaid=tuple(unpaid), hits=(*self.hits, event)[-RECENT_HITS:])
        return self

    def _still_waiting(self, button: int | None) -> tuple[int, ...]:
        """The waiting seats the button does not pass when it moves from :attr:`button` to ``button``."""
        old = self.button
        if old is None or button is None:
            return self.waiting
        reach = (button - old) % SEAT_WRAP
        return tuple(seat for seat in self.waiting if not 0 < (seat - old) % SEAT_WRAP <= reach)


# -- what the public may see of a hand ------------------------------------------------------------


@dataclass(frozen=True)
class CardsView:
    """One hand's cards as the public sees them: a face-down card is None.

    ``total`` is the total in the game's words (``"soft 17"``, ``"bust 24"``,
    ``"natural"``), None while nothing is showing; ``wager`` is the cents riding
    on this hand (None where the hand has no wager of its own, like a house
    dealer's); ``status`` says where the hand stands (``"stood"``, ``"folded"``,
    ``"doubled"``), or None.
    """

    cards: tuple[str | None, ...] = ()
    total: str | None = None
    wager: int | None = None
    status: str | None = None


@dataclass(frozen=True)
class SeatHandView:
    """One seat in the hand: its hands (more than one after a split), whether it is in turn."""

    seat: int
    hands: tuple[CardsView, ...] = ()
    in_turn: bool = False


@dataclass(frozen=True)
class HandView:
    """The hand as the pit snapshot and the dealer display show it, hidden cards hidden.

    ``dealer`` is the house dealer's or player-dealer's hand (None in a game
    with no dealer hand); ``dealer_seat`` the player-dealer's seat; ``pots``
    a pot game's pots; ``payouts`` the lines the dealer pays and collects by,
    in the order the rules want them paid.
    """

    phase: str
    seats: tuple[SeatHandView, ...] = ()
    dealer: CardsView | None = None
    dealer_seat: int | None = None
    pots: tuple[Pot, ...] = ()
    payouts: tuple[str, ...] = ()


# -- the game and its hand ------------------------------------------------------------------------

HandT = TypeVar("HandT", bound="Hand")
HandT_co = TypeVar("HandT_co", bound="Hand", covariant=True)


class Hand(ABC):
    """One hand in play: frozen; every action returns a new hand and its events."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """The hand's phase, one of its game's :attr:`Game.phases`."""

    @abstractmethod
    def decision(self) -> Decision | None:
        """Who must decide now, what they may do, where the next card goes; None once settled."""

    @abstractmethod
    def results(self) -> tuple[WagerResult, ...] | None:
        """The hand's results once settled, else None."""

    @abstractmethod
    def verify_deal(self) -> None:
        """Raise :class:`RuleError` if no card may be drawn from the shoe now."""

    @abstractmethod
    def deal(self: HandT, card: Card, index: int) -> tuple[HandT, tuple[GameEvent, ...]]:
        """Put ``card`` (shoe ``index``) where the decision's ``card`` says; events start with ``Dealt``."""

    @abstractmethod
    def verify(self, action: str, amount: int | None = None) -> None:
        """Raise :class:`RuleError` if ``action`` with ``amount`` is not allowed now, saying why."""

    @abstractmethod
    def act(self: HandT, action: str, amount: int | None = None) -> tuple[HandT, tuple[GameEvent, ...]]:
        """Take ``action``; the events start with its ``Acted`` record (after :meth:`verify`)."""

    @abstractmethod
    def committed(self) -> Mapping[tuple[int, str], int]:
        """The chips each spot should hold now, by (seat, spot); a spot left out is not checked."""

    @abstractmethod
    def view(self) -> HandView:
        """What the public may see now: face-down cards are None."""

    def void(self) -> tuple[GameEvent, ...]:
        """The events a misdeal's void brings (cards turned up before they are mucked); none by default."""
        return ()

    def can(self, action: str, amount: int | None = None) -> bool:
        """Whether :meth:`act` would take ``action`` with ``amount`` now."""
        try:
            self.verify(action, amount)
        except RuleError:
            return False
        return True

    def can_deal(self) -> bool:
        """Whether a card may be drawn from the shoe now."""
        try:
            self.verify_deal()
        except RuleError:
            return False
        return True


class Game(ABC, Generic[HandT_co]):
    """A game bound to its rules and the table's limits.

    Class attributes declare the game as data: its ``spots``, the ``actions``
    its hands may offer, the ``phases`` of a hand and the ``flow`` between them
    (drawn in ``docs/state-machine.md``), the control ``commands`` that
    change the session (buy-ins, a supervisor's confirmation), and the
    ``betting_lights``: the spots whose lights are on while betting is open
    (a progressive wager's spot; during a hand the seat in turn's spots light).
    """

    spots: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    phases: tuple[str, ...] = ()
    flow: tuple[tuple[str, str], ...] = ()
    commands: tuple[str, ...] = ()
    betting_lights: tuple[str, ...] = ()

    @property
    @abstractmethod
    def decks(self) -> int:
        """How many decks the shoe must hold."""

    @abstractmethod
    def bet_problems(self, bets: Bets, session: Session) -> list[str]:
        """Why these wagers may not be dealt, one line each; empty when the hand may start."""

    @abstractmethod
    def start(self, bets: Bets, session: Session) -> tuple[HandT_co, tuple[GameEvent, ...]]:
        """A new hand for these wagers, and the events of its start (blinds posted, ...)."""

    def seats_in_play(self, bets: Bets, session: Session) -> tuple[int, ...]:
        """The seats a hand with these wagers deals to (``hand.started``): every seat with a wager."""
        return tuple(seat for seat in sorted(bets) if any(bets[seat].values()))

    def dealer_seat(self, session: Session) -> int | None:
        """The player-dealer's seat for the next hand (None: the house deals)."""
        return None

    def finish(self, hand: Hand, session: Session) -> tuple[SessionEvent, ...]:
        """What a settled hand (one this game started) changes in the session (stacks, button,
        meters); none by default."""
        return ()

    def command(self, name: str, args: Mapping[str, object], session: Session,
                in_hand: bool) -> tuple[SessionEvent, ...]:
        """A control command that changes the session (a buy-in, a supervisor's confirmation),
        one of :attr:`commands`; raise :class:`RuleError` if refused. ``args`` are the command's
        fields; a supervisor's command carries ``supervisor``, already authenticated."""
        raise RuleError(f"this game has no {name!r} command")

    def due(self, session: Session, now: str) -> tuple[SessionEvent, ...]:
        """What the time ``now`` (a pit timestamp) brings: a tournament level that starts; none by
        default. The table asks between hands, so the clock is an input and the game stays pure."""
        return ()
