"""The one typed interface between the table and every game.

A game is a pure package: a frozen rules object, a :class:`Game` bound to the
rules and the table limits, and a frozen :class:`Hand` state. The table asks a
hand one question, :meth:`Hand.decision`: who must decide now, which actions
they may take with which amounts, and where the next card from the shoe goes.
Every action is ``verify`` (raise :class:`RuleError` in a dealer's words),
``can`` (a bool) and ``act`` (the new hand and the events it caused), as in
pokerkit. Every change is a small frozen event record, registered under its pit
type (:mod:`controller.events`): the hand's events (:mod:`controller.events.hand`)
and the session's, each owned by a session part.

What outlives a hand (seat stacks, the button or player-dealer seat, a
tournament level, progressive meters) is the :class:`Session`, composed of
parts (:mod:`controller.games.session`) that a game declares in
:attr:`Game.session_parts`. It changes only through events, applied by
:meth:`Session.apply`, so the journal alone rebuilds it; Easy Jack uses none.
The events and parts are re-exported here, so a game imports all it needs
from this module.

Money is integer cents. No clock, no randomness, no I/O anywhere in a game.

>>> session = Session().apply(StackChanged(seat=2, amount=10_000, reason="buy_in"))
>>> session[Stacks].stack(2), session[Stacks].stack(3)
(10000, 0)
>>> Option(low=400, high=2000, spot="bet").allows(500), Option().allows(None)
(True, True)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from controller.events.alerts import alert
from controller.events.hand import (
    Acted,
    Alerted,
    Dealt,
    Pot,
    PotAwarded,
    PotsChanged,
    Revealed,
    Settled,
    Target,
    WagerResult,
)
from controller.events.registry import Event
from controller.games.session import Session
from controller.games.session.button import SEAT_WRAP, Button, ButtonMoved
from controller.games.session.part import SessionPart
from controller.games.session.progressive import (
    RECENT_HITS,
    MeterChanged,
    Progressive,
    ProgressiveHit,
    ProgressivePaid,
)
from controller.games.session.stacks import StackChanged, Stacks
from controller.games.session.tournament import (
    LevelStarted,
    PlayerEliminated,
    Tournament,
    TournamentEnded,
)
from firmware_bridge.kernel.cards import Card

__all__ = [
    "RECENT_HITS", "SEAT_WRAP", "Acted", "Alerted", "Bets", "Button", "ButtonMoved", "CardsView", "Dealt",
    "Decision", "Event", "Game", "GameEvent", "Hand", "HandEvent", "HandView", "LevelStarted", "Limits",
    "MeterChanged", "Move", "Option", "PlayerEliminated", "Pot", "PotAwarded", "PotsChanged", "Progressive",
    "ProgressiveHit", "ProgressivePaid", "Revealed", "RuleError", "Rules", "SeatHandView", "Session",
    "SessionEvent", "SessionPart", "Settled", "StackChanged", "Stacks", "Target", "Tournament",
    "TournamentEnded", "WagerResult", "alert",
]

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

HandEvent = Dealt | Revealed | Acted | Settled | PotsChanged | PotAwarded | Alerted
"""An event of the hand in play (:mod:`controller.events.hand`)."""

SessionEvent = Event
"""An event of a session part (:mod:`controller.games.session`): any part's, a game's own included."""

GameEvent = Event
"""What a game returns as an event: a registered record (:mod:`controller.events.registry`)."""


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
class Move:
    """One movement of chips the dealer makes to settle a pot game's hand, in the order made.

    ``kind`` is ``return`` (an uncalled bet back to its seat), ``gather`` (a
    spot's bet into the pot), ``rake`` (to the drop box), ``push`` (a pot, or a
    share of one, to its winner) or ``muck`` (a losing hand thrown away
    unseen); ``words`` say it to the dealer; ``seat`` is the seat it concerns
    (None: the table's, as the rake), ``amount`` the cents moved (None for a
    muck) and ``pot`` the pot's index (0 the main pot) for a push.
    """

    kind: str
    words: str
    seat: int | None = None
    amount: int | None = None
    pot: int | None = None


@dataclass(frozen=True)
class HandView:
    """The hand as the pit snapshot and the dealer display show it, hidden cards hidden.

    ``dealer`` is the house dealer's or player-dealer's hand (None in a game
    with no dealer hand); ``dealer_seat`` the player-dealer's seat; ``pots``
    a pot game's pots; ``payouts`` the lines the dealer pays and collects by,
    in the order the rules want them paid; ``moves`` the same settlement of a
    pot game as chips to move, seat by seat, for a screen (empty otherwise).
    """

    phase: str
    seats: tuple[SeatHandView, ...] = ()
    dealer: CardsView | None = None
    dealer_seat: int | None = None
    pots: tuple[Pot, ...] = ()
    payouts: tuple[str, ...] = ()
    moves: tuple[Move, ...] = ()


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

    def act(self: HandT, action: str, amount: int | None = None) -> tuple[HandT, tuple[GameEvent, ...]]:
        """Take ``action`` after :meth:`verify` (which raises :class:`RuleError` if it is not allowed);
        the events start with its ``Acted`` record."""
        self.verify(action, amount)
        return self.take(action, amount)

    @abstractmethod
    def take(self: HandT, action: str, amount: int | None = None) -> tuple[HandT, tuple[GameEvent, ...]]:
        """Take ``action``, which :meth:`verify` has just allowed (it is not verified again: the table
        verifies an action once, to say why not); the events start with its ``Acted`` record."""

    @abstractmethod
    def committed(self) -> Mapping[tuple[int, str], int]:
        """The chips each spot should hold now, by (seat, spot); a spot left out is not checked."""

    @abstractmethod
    def view(self) -> HandView:
        """What the public may see now: face-down cards are None."""

    def staked(self) -> Mapping[int, int]:
        """What each seat has put in this hand out of the stack the table keeps for it (the chips
        on its spots and those gathered into the pots), by seat: the table's ledger counts a
        stack less this while the hand is in play. None in a game the house banks (no stacks)."""
        return {}

    def house_result(self) -> int:
        """What the house's chips (the table's tray) gain from this settled hand, in cents:
        collected minus paid on the wagers the house banks, plus any fee it takes in chips. By
        default every wager is the house's: the negated sum of the payouts. A game where players
        bank (:attr:`Game.player_banked`), or whose house takes only a rake dropped in a box
        (:attr:`Game.house_rakes`), says so here."""
        return -sum(result.payout for result in self.results() or ())

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
    its hands may offer (with ``action_labels``, each action's name for people,
    declared beside the action: :class:`~controller.games.parts.actions.Action`;
    ``dangerous_actions``, those a screen confirms by a second touch; and
    ``action_answers``, the words of an action whose amount answers a question),
    the ``phases`` of a hand and the ``flow`` between them
    (drawn in ``docs/state-machine.md``), the control ``commands`` that
    change the session (buy-ins, a supervisor's confirmation), and the
    ``betting_lights``: the spots whose lights are on while betting is open
    (a progressive wager's spot; during a hand the seat in turn's spots light),
    and the ``session_parts`` its session is made of (the table starts a session
    holding each at its default; :mod:`controller.games.session`).

    Who takes what, as data too (what a rating's theoretical win counts:
    :mod:`controller.podium.ratings`): ``player_banked``, the spots a player-dealer
    banks when one deals the hand (the house has no edge on those wagers then:
    :meth:`Hand.house_result` leaves them out), and ``house_rakes``, whether the
    house's take is a rake on the pots (a pot game: the wagers go to the players,
    and :meth:`Hand.house_result` is 0) rather than an edge on the wagers.
    """

    spots: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    action_labels: tuple[tuple[str, str], ...] = ()
    dangerous_actions: tuple[str, ...] = ()
    action_answers: tuple[tuple[str, str], ...] = ()
    phases: tuple[str, ...] = ()
    flow: tuple[tuple[str, str], ...] = ()
    commands: tuple[str, ...] = ()
    betting_lights: tuple[str, ...] = ()
    session_parts: tuple[type[SessionPart], ...] = ()
    player_banked: tuple[str, ...] = ()
    house_rakes: bool = False

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
