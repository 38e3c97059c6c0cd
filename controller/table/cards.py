"""What the table decides about cards from the shoe: a card dealt to the hand, or alerted.

Each function takes the table and one input, and yields the steps it causes
(:class:`controller.table.writer.Step`), checked against the loaded shoe first
(:mod:`controller.table.shoe_checks`): a card the hand takes is dealt where the game says, one it
does not take is ``card_out_of_turn``; cards missing before it are a ``card_gap``. A dealt card's
step is a game call's (:func:`controller.table.buttons.game_step`), as an action's is.
"""

from __future__ import annotations

import logging
from collections.abc import Generator

from controller.events import table as events
from controller.table import shoe_checks
from controller.table.buttons import Steps, game_step, settle
from controller.table.facing import TableFacing
from controller.table.writer import Decided, Step, alert
from drivers.inputs import CardDrawn, CardUnreadable, CutCard, ShoeLoaded


def on_card(table: TableFacing, drawn: CardDrawn) -> Decided:
    """A card drawn from the shoe: dealt to the hand if it takes one now, else alerted."""
    shoe = table.state.shoe
    if shoe.shoe_id is None or drawn.shoe_id != shoe.shoe_id:
        yield unknown_shoe(drawn.shoe_id, drawn.index)
        return None
    card = str(drawn.card)
    if not (yield from plausible(table, drawn.index, card)):
        return None
    yield from check_gap(table, drawn.index)
    hand = table.state.hand
    taken = table.phase == "in_hand" and hand is not None and hand.can_deal()
    if shoe.seen[card] >= shoe.decks:
        # A card dealt face down is not named before the event that reveals it (docs/pit-events.md);
        # its identity stays in the journal's private part.
        decision = table.decision() if taken else None
        target = decision.card if decision is not None else None
        named = None if target is not None and not target.face_up else card
        words = f"card {drawn.index}{'' if named is None else ' ' + named}: more copies than " \
                f"{shoe.decks} decks hold"
        if named is None:
            yield alert("card_over_count", words, index=drawn.index)
        else:
            yield alert("card_over_count", words, index=drawn.index, card=named)
    if taken:
        table.notice = None
        yield from deal_card(table, drawn)
        return None
    yield alert("card_out_of_turn",
                f"card {drawn.index} was drawn when no hand may take one: put it aside",
                index=drawn.index, hidden={"card": card})
    return None


def deal_card(table: TableFacing, drawn: CardDrawn) -> Steps:
    """A card the hand takes: ``card.dealt`` to where the game says, and whatever it brings about."""
    hand = table.state.hand
    assert hand is not None
    result, caused = hand.deal(drawn.card, drawn.index)
    head, *rest = caused
    call: dict[str, str | int] = {"call": "deal", "card": str(drawn.card), "index": drawn.index}
    yield game_step(table, head, call, result, rest)
    settle(table)


def on_unreadable(table: TableFacing, item: CardUnreadable) -> Decided:
    """A card the shoe could not read: ``card_unreadable`` (after the shoe's checks)."""
    shoe = table.state.shoe
    if shoe.shoe_id is None or item.shoe_id != shoe.shoe_id:
        yield unknown_shoe(item.shoe_id, item.index)
        return None
    if not (yield from plausible(table, item.index, None)):
        return None
    yield from check_gap(table, item.index)
    yield alert("card_unreadable", f"card {item.index} could not be read: put it aside and draw again",
                index=item.index)
    return None


def on_shoe_loaded(table: TableFacing, item: ShoeLoaded) -> Decided:
    """A shoe loaded: ``shoe.loaded``, unless it is the loaded shoe reported again."""
    if item.shoe_id != table.state.shoe.shoe_id:
        yield Step([events.ShoeLoaded(item.shoe_id, item.decks)])
    else:
        table.repeats.note(("shoe loaded again", item.shoe_id), logging.INFO,
                           f"shoe {item.shoe_id} loaded again (a resend): the shoe goes on as it was")
    return None


def on_cut_card(table: TableFacing, item: CutCard) -> Decided:
    """The cut card came out of the loaded shoe: ``shoe.cut_card`` (once)."""
    if item.shoe_id == table.state.shoe.shoe_id and not table.state.shoe.cut_card_out:
        yield Step([events.CutCardOut(item.index)])
    else:
        table.repeats.note(("cut card", item.shoe_id), logging.INFO, f"cut card of shoe "
                           f"{item.shoe_id} ignored: not the loaded shoe, or out already")
    return None


def plausible(table: TableFacing, index: int, card: str | None) -> Generator[Step, None, bool]:
    """Whether a report of the loaded shoe is a new card (:func:`shoe_checks.check_card`). A refused
    one raises ``card_implausible`` (once; then it is logged) and a repeat is logged: neither changes
    the shoe's state."""
    shoe = table.state.shoe
    verdict = shoe_checks.check_card(shoe, index, card)
    if verdict.take:
        return True
    refused = shoe_checks.refusal_alert(shoe, index, card, verdict) if verdict.refused else None
    if refused is not None:
        yield Step([refused])
    else:
        table.repeats.note((verdict.reason, shoe.shoe_id), logging.WARNING if verdict.refused else
                           logging.INFO, f"shoe {shoe.shoe_id}: {verdict.words}: ignored")
    return False


def resync(table: TableFacing, supervisor: str) -> Decided:
    """A supervisor's ``shoe_resync``: the loaded shoe's next card may come at any index ahead (a
    ``shoe_resync`` alert records it); None, or why not."""
    made = shoe_checks.resync_alert(table.state.shoe, supervisor)
    if isinstance(made, str):
        return made
    yield Step([made])
    return None


def unknown_shoe(shoe_id: int, index: int) -> Step:
    """A card from a shoe the table never saw loaded: an alert, and the loaded shoe's count of
    cards drawn is left alone (the alert carries no ``index`` of it)."""
    return alert("card_out_of_turn",
                 f"card {index} came from shoe {shoe_id}, which was never loaded: put it aside "
                 "and load the shoe again", severity="critical", shoe_id=shoe_id)


def check_gap(table: TableFacing, index: int) -> Generator[Step, None, None]:
    """A critical ``card_gap`` if cards left the shoe unseen before the one at ``index``."""
    last_index = table.state.shoe.last_index
    if index > last_index + 1:
        first, last = last_index + 1, index - 1
        yield alert("card_gap",
                    f"cards {first} to {last} left the shoe unseen: check the table, void if needed",
                    index=first, last_index=last)
