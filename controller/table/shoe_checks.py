"""Card plausibility: whether a card the shoe reports can be the next card of the loaded shoe.

A card's identity is ``(shoe_id, index)`` (docs/protocol.md section 3): the index
counts the cards drawn since SHOE_LOADED, from 1. One implausible report must
not wedge the table, so before a card (or an unreadable card) is dealt or
counted, :func:`check_card` compares it with what the table knows of the shoe
(:class:`~controller.table.state.ShoeState`: the last index, each index read so
far and the indexes declared missing by a ``card_gap``) and returns a
:class:`Verdict`:

- ``take``: the next card (or the next after a plausible gap): the table deals
  or counts it as usual (a gap first raises ``card_gap``);
- a *repeat*: the same report again (a resend after a link reset); dropped,
  and only logged and counted;
- a *refusal*, which changes nothing in the shoe's state: index 0; an index
  beyond what the loaded shoe's decks hold; a jump of more than
  :data:`MAX_UNSEEN` cards no real shoe makes (unless a supervisor asked for a
  ``shoe_resync``); an index already read as another card (or as unreadable);
  a card reported after its index was declared a gap. The first report of each
  is a critical ``card_implausible`` alert (:func:`refusal_alert`); the same
  refusal again, or any after :data:`MAX_REFUSALS_ALERTED` of one shoe, is
  logged and counted only, so a faulty board cannot fill the journal.

Everything here is pure: the shoe's state and the input in, a verdict out.
The alert and the log words never name a card (it may be a hole card not yet
revealed); the cards involved go in the journal's private part.

>>> from controller.table.state import ShoeState
>>> shoe = ShoeState(shoe_id=42, decks=6, last_index=4, read={1: "5h", 2: "9d", 3: "Kc", 4: "2c"})
>>> check_card(shoe, 5, "7s").take, check_card(shoe, 2, "9d").reason
(True, 'repeat')
>>> [check_card(shoe, index, "7s").reason for index in (0, 4294967295, 40, 3)]
['index_zero', 'beyond_shoe', 'jump', 'conflict']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.events.alerts import CARD_IMPLAUSIBLE, SHOE_RESYNC, alert
from controller.events.hand import Alerted
from firmware_bridge.kernel.json import JsonObject

if TYPE_CHECKING:
    from controller.table.state import ShoeState

CARDS_PER_DECK = 52

MAX_UNSEEN = 20
"""The most cards that may leave the shoe unseen between two reports (a ``card_gap``); a bigger jump is
refused (a dealer does not draw 20 cards past a reader unnoticed). ``shoe_resync`` lifts it for one card."""

MAX_REFUSALS_ALERTED = 10
"""Refused cards of one shoe that raise an alert; later refusals of that shoe are logged and counted."""

REPEAT = "repeat"


@dataclass(frozen=True)
class Verdict:
    """What to do with one card report: ``take`` it, or not, and why (``reason``, ``words``)."""

    take: bool
    reason: str | None = None
    words: str | None = None
    """Why not, for the alert or the log (never naming a card)."""

    @property
    def refused(self) -> bool:
        """Whether the report is refused (as opposed to taken or a mere repeat)."""
        return not self.take and self.reason != REPEAT


TAKE = Verdict(True)


def _describe(card: str | None) -> str:
    return "an unreadable card" if card is None else "a card"


def check_card(shoe: ShoeState, index: int, card: str | None) -> Verdict:
    """The verdict on the loaded ``shoe`` reporting ``card`` (pit notation, None: unreadable) at ``index``."""
    size = shoe.decks * CARDS_PER_DECK
    if index == 0:
        return Verdict(False, "index_zero", f"{_describe(card)} at index 0: a shoe counts its cards from 1")
    if index > size:
        return Verdict(False, "beyond_shoe", f"{_describe(card)} at index {index}: a shoe of {shoe.decks} "
                                             f"decks holds {size} cards")
    again = Verdict(False, REPEAT, f"card {index} reported again (a resend)")
    if index <= shoe.last_index:
        if index in shoe.read:
            if shoe.read[index] == card:
                return again
            before = ("as unreadable" if shoe.read[index] is None
                      else "as a card" if card is None else "as another card")
            return Verdict(False, "conflict", f"{_describe(card)} at index {index}, which was read before "
                                              f"{before}")
        if any(first <= index <= last for first, last in shoe.gaps):
            return Verdict(False, "after_gap", f"{_describe(card)} at index {index}, which was reported "
                                               "missing (card_gap) before")
        return again
    unseen = index - shoe.last_index - 1
    if unseen > MAX_UNSEEN and not shoe.resync:
        return Verdict(False, "jump", f"{_describe(card)} at index {index} after card {shoe.last_index}: "
                                      f"{unseen} cards cannot have left the shoe unseen")
    return TAKE


def refusal_alert(shoe: ShoeState, index: int, card: str | None, verdict: Verdict) -> Alerted | None:
    """The ``card_implausible`` alert for a refused report, or None when it is only to be logged
    (the same refusal again, or one past :data:`MAX_REFUSALS_ALERTED` of this shoe)."""
    assert verdict.reason is not None and verdict.words is not None
    if (index, verdict.reason) in shoe.refused or len(shoe.refused) >= MAX_REFUSALS_ALERTED:
        return None
    hidden: JsonObject = {"card": card}
    if verdict.reason == "conflict":
        hidden["read_before"] = shoe.read[index]
    return alert(CARD_IMPLAUSIBLE, f"shoe {shoe.shoe_id}: {verdict.words}. Not dealt, nothing counted: if a "
                 "card came out, put it aside. If every card is refused, load a new shoe (or a supervisor "
                 "sends shoe_resync)", shoe_id=shoe.shoe_id, index=index, reason=verdict.reason,
                 hidden=hidden)


def resync_alert(shoe: ShoeState, supervisor: str) -> Alerted | str:
    """The ``shoe_resync`` alert for a supervisor who lets the loaded shoe's next card come at
    any index ahead (within the shoe), or why it cannot be done (no shoe, or one resync waits already:
    a repeat is not recorded again)."""
    if shoe.shoe_id is None:
        return "shoe_resync: no shoe is loaded"
    if shoe.resync:
        return f"shoe_resync: shoe {shoe.shoe_id}'s next card may come at any index already"
    return alert(SHOE_RESYNC, f"supervisor {supervisor} lets shoe {shoe.shoe_id}'s next card come at any "
                 f"index after card {shoe.last_index} (cards skipped are reported as a card_gap)",
                 shoe_id=shoe.shoe_id, supervisor=supervisor)
