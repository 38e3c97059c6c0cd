"""The table's books, table side: who deals, and the table inventory slips of each shift.

:class:`BooksState` is the part of the table's state the books keep (applied
from the journaled events like the rest: :mod:`controller.table.state`);
:func:`books_events` is the rule of each command of the books
(:mod:`controller.commands.books`), pure: the command, who signed it (the
dealer's PIN or the supervisor's, both checked by the daemon before), the
state in; the events, or why the command is refused, out.

- ``dealer_in``: ``dealer.in``; a dealer still signed in is signed out in the
  same step first (``dealer.out``, ``reason`` ``"rotation"``). The dealer signed
  in already is refused.
- ``dealer_out``: ``dealer.out`` (``"signed_out"``).
- ``opener`` / ``closer``: ``table.opener`` / ``table.closer``, the tray's
  reading (and its chips by denomination) signed by the dealer signed in; between hands, on a table with a
  tray read and no fill or credit waiting. A shift is an opener and its
  closer: an opener while one is open is refused, and so is a closer
  without one.
- ``sign_slip``: ``table.slip_signed`` for the last slip of that kind the
  dealer signed and no supervisor signed yet.
- ``enter_drop``: ``table.drop``, once per shift, after its closer.

>>> state = BooksState()
>>> made = books_events(orders.DealerIn("D7", "pin"), None, state, tray=(50_000, None), in_hand=False)
>>> made
[DealerIn(dealer='D7')]
>>> for event in made: state.apply(event)
>>> books_events(orders.SignCloser("pin"), None, state, tray=(50_000, None), in_hand=False)
'no opener: the shift is opened first'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from controller.commands import books as orders
from controller.commands.registry import Command
from controller.events import books as events
from controller.events.codec import from_json, record_json
from controller.events.registry import Event
from firmware_bridge.kernel.json import JsonObject, JsonValue

Made = list[Event] | str


@dataclass
class BooksState:
    """The ``dealer`` signed in (None: none), whether a shift is open (an opener without its
    closer), the slips the dealer signed that wait for a supervisor (slip -> amount), whether
    the last closer waits for its drop, and the rake in the drop box since that drop."""

    dealer: str | None = None
    shift_open: bool = False
    unsigned: dict[str, int] = field(default_factory=dict)
    drop_due: bool = False
    rake_dropped: int = 0
    """The rake of the hands ended since the drop was last entered: what the drop box holds of it."""

    def hand_ended(self, rake: int) -> None:
        """A hand ended: its rake is in the drop box."""
        self.rake_dropped += rake

    def apply(self, event: Event) -> None:
        """Apply one event of the books (any other changes nothing)."""
        if isinstance(event, events.DealerIn):
            self.dealer = event.dealer
        elif isinstance(event, events.DealerOut):
            self.dealer = None
        elif isinstance(event, events.Slip):
            opening = isinstance(event, events.Opener)
            self.shift_open, self.drop_due = opening, not opening
            self.unsigned["opener" if opening else "closer"] = event.amount
        elif isinstance(event, events.SlipSigned):
            self.unsigned.pop(event.slip, None)
        elif isinstance(event, events.DropEntered):
            self.drop_due, self.rake_dropped = False, 0       # the box emptied and counted

    def to_json(self) -> JsonObject:
        """The state as the checkpoint keeps it (its fields, by the one codec)."""
        return record_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, JsonValue] | None) -> BooksState:
        """The state :meth:`to_json` kept (a checkpoint from before the books: none kept)."""
        return from_json(cls, data) if data else cls()


APPLIED: tuple[type[Event], ...] = (events.DealerIn, events.DealerOut, events.Opener, events.Closer,
                                     events.SlipSigned, events.DropEntered)
"""The events :meth:`BooksState.apply` changes the state by."""


def books_events(order: Command, supervisor: str | None, state: BooksState, *,
                 tray: tuple[int | None, int | None] | None, in_hand: bool,
                 chips: Mapping[int, int] | None = None) -> Made:
    """The events of the books' command ``order`` (decoded, and its PIN checked), signed by
    ``supervisor`` where it is a supervisor's; ``tray``: the tray's reading and the reading a fill
    or credit waits for (None: the table has no tray); ``in_hand``: whether a hand is in play;
    ``chips``: the tray's chips by denomination as last read (None: not known), on the slip."""
    if isinstance(order, orders.DealerIn):
        if order.dealer == state.dealer:
            return f"dealer {order.dealer} is signed in already"
        out = [events.DealerOut(state.dealer, "rotation")] if state.dealer is not None else []
        return [*out, events.DealerIn(order.dealer)]
    if isinstance(order, orders.DealerOut):
        if state.dealer is None:
            return "no dealer is signed in"
        return [events.DealerOut(state.dealer, "signed_out")]
    if isinstance(order, orders.SignOpener | orders.SignCloser):
        return _slip(isinstance(order, orders.SignOpener), state, tray, in_hand, chips)
    if isinstance(order, orders.SignSlip):
        assert supervisor is not None
        amount = state.unsigned.get(order.slip)
        if amount is None:
            return f"no {order.slip} waits for a supervisor's signature"
        return [events.SlipSigned(order.slip, amount, supervisor)]
    if isinstance(order, orders.EnterDrop):
        assert supervisor is not None
        if not state.drop_due:
            return "the drop is entered once per shift, after its closer"
        return [events.DropEntered(order.amount, supervisor)]
    return f"unknown command {order.name!r}"


def _slip(opening: bool, state: BooksState, tray: tuple[int | None, int | None] | None,
          in_hand: bool, chips: Mapping[int, int] | None) -> Made:
    """The opener (``opening``) or the closer: the tray's reading (and its ``chips`` by
    denomination), signed by the dealer signed in."""
    if tray is None:
        return 'this table has no tray: configure its antenna as "tray" in [antennas]'
    if in_hand:
        return "only between hands: finish the hand (NEXT) or void it first"
    if state.dealer is None:
        return "no dealer is signed in: the dealer signs in first"
    if opening and state.shift_open:
        return "the shift is open: its closer comes before another opener"
    if not opening and not state.shift_open:
        return "no opener: the shift is opened first"
    amount, expected = tray
    if amount is None:
        return "the tray has not been read yet"
    if expected is not None:
        return "a fill or credit still waits: move its chips first"
    slip = events.Opener if opening else events.Closer
    return [slip(amount, state.dealer, None if chips is None else dict(sorted(chips.items())))]
