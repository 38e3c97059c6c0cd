"""The public views of a table: its state, the picture every consumer draws, the dealer display's model.

:func:`public_state` is what the journal alone determines (a restart rebuilds
it exactly). :func:`table_picture` adds what the table knows live (the chips on
each spot now, the boards' STATUS flags, the last refusal), the dealer's
instruction and the actions and commands open now: it is the snapshot's
``state`` and the ``data`` of every ``table.view`` message (docs/pit-events.md),
so a consumer draws the table from the stream alone. All are built from the
table's state and the game's own public view of the hand
(:meth:`Hand.view <controller.games.interface.Hand.view>`),
so all keep face-down cards hidden and none holds any game's words: what the
dealer is told to do next is the game's ``prompt``.

The picture carries the money of a hand too, one rule for every consumer
(docs/pit-events.md, "The table's picture"): its ``checks`` (:func:`checks`) are exactly
the spots NEXT checks (:meth:`~controller.table.machine.Table.payout_checks`, which raises
``payout_mismatch`` for each that reads wrong), each with what it should read; a screen
draws a box to pay or collect for those spots and no other. Where money goes to a stack
the table keeps instead, ``stack_changes`` says what NEXT does to each stack (the game's
own :meth:`Game.finish <controller.games.interface.Game.finish>`, as NEXT will run it).
``moves`` are a pot game's chips to move, in order (:class:`HandView.moves`); ``committed``
what each spot should hold during a hand; ``jackpots`` the progressive prizes waiting for a
supervisor, and those of the settled hand already confirmed. All are empty when there is
nothing to say, so a picture between hands carries almost nothing more.
"""

from __future__ import annotations

import re

from controller.commands.table import TABLE_ACTIONS
from controller.events.hand import WagerResult
from controller.events.picture import (
    ActionPicture,
    BooksPicture,
    Check,
    DealerPicture,
    DevicePicture,
    FloorCallPicture,
    HandPicture,
    Jackpot,
    MovePicture,
    Picture,
    PublicState,
    SeatPicture,
    SessionPicture,
    ShoePicture,
    StackChange,
    TrayPicture,
)
from controller.games.interface import Button, HandView, Progressive, StackChanged, Stacks, Tournament
from controller.games.parts.hand_names import hand_number, split_spots
from controller.table import gather
from controller.table.buttons import table_refusal
from controller.table.machine import FLOOR_ACTIONS, TABLE_BUTTONS, Table
from drivers.display import HandLine, SeatView, TableView
from firmware_bridge.kernel.money import dollars

BETTING_WORDS = "Betting is open. Press DEAL to close betting and deal."
SETTLED_WORDS = "Pay and collect as shown, then press NEXT"
WAITING = "waiting"
"""The outcome of a wager whose prize waits for a supervisor (docs/pit-events.md, "Results")."""


def public_state(table: Table) -> PublicState:
    """The table's whole state as a snapshot shows it (docs/pit-events.md, sync socket)."""
    return _state(table, table.state.hand.view() if table.state.hand is not None else None)


def _state(table: Table, view: HandView | None) -> PublicState:
    """:func:`public_state`, the hand in play's public ``view`` given (None between hands)."""
    state = table.state
    in_hand = {s.seat: s for s in view.seats} if view is not None else {}
    decision = table.decision()
    seats: list[SeatPicture] = []
    stacks = state.session[Stacks].stacks
    turn = decision.seat if decision is not None else None
    by_seat: dict[int, dict[str, int]] = {}
    for (at, spot), amount in sorted(state.bets.items()):
        by_seat.setdefault(at, {})[spot] = amount
    for seat in range(1, table.settings.seats + 1):
        bets = by_seat.get(seat, {})
        held = in_hand[seat].hands if seat in in_hand else ()
        hands = tuple(HandPicture(h.cards, h.total, h.wager, h.status) for h in held)
        first = hands[0] if hands else _NO_HAND
        seats.append(SeatPicture(seat, bets, first.cards, first.total, hands, turn == seat, stacks.get(seat)))
    dealer = _NO_DEALER
    if view is not None and view.dealer is not None:
        dealer = DealerPicture(view.dealer.cards, view.dealer.total, view.dealer_seat)
    shoe = state.shoe
    tournament = state.session[Tournament]
    return PublicState(
        table=table.settings.table_id,
        game=table.settings.game_name,
        phase=view.phase if view is not None and table.phase == "in_hand" else table.phase,
        table_phase=table.phase,
        hand=state.hand_no if state.in_hand else None,
        next_hand=state.hand_no + 1,
        seats=tuple(seats),
        dealer=dealer,
        pots=view.pots if view else (),
        results=state.results,
        devices={name: DevicePicture(d.online, d.firmware, d.serial, d.reason)
                 for name, d in sorted(state.devices.items())},
        shoe=ShoePicture(shoe.shoe_id, shoe.decks, shoe.last_index, shoe.cut_card_out),
        live_buttons=table.live_buttons(),
        alerts=tuple(state.alerts),
        session=SessionPicture(state.session[Button].seat, tournament.level, tournament.blinds,
                               tournament.ends_at),
        meters={"hands": state.hand_no, **state.session[Progressive].meters},
        limits=table.limits(),
        closed=state.floor.closed,
        message=state.floor.message,
        tray=None if not table.settings.tray else TrayPicture(
            state.tray.amount, state.tray.at_start if state.in_hand else None, state.tray.expected,
            None if state.tray.chips is None else {str(value): count
                                                   for value, count in sorted(state.tray.chips.items())}),
        books=BooksPicture(state.books.dealer, state.books.shift_open, dict(state.books.unsigned),
                           state.books.drop_due),
    )


_NO_HAND = HandPicture()
_NO_DEALER = DealerPicture()


def open_actions(table: Table) -> tuple[ActionPicture, ...]:
    """Every action that may be taken now, as the control socket's ``act`` takes it.

    The table's own (``deal``, ``next``, ``void``) when the machine allows them,
    then the game's actions the hand offers now, each with the seat and hand it
    is for, the amount range in cents (``low``/``high``, null when it takes no
    amount) and the ``spot`` whose chips carry the amount (null: the amount
    comes with the command); last the dealer's towards the pit: ``call_floor``
    always, ``acknowledge`` while the pit's message is shown.
    """
    decision = table.decision()
    actions: list[ActionPicture] = []
    game_actions = decision.actions if decision is not None else {}
    for name in TABLE_BUTTONS:
        if name not in game_actions and table_refusal(table, name) is None:
            actions.append(ActionPicture(name))
    if decision is not None:
        for name, option in table.offered().items():
            actions.append(ActionPicture(name, decision.seat, decision.hand_index, option.low, option.high,
                                         option.spot))
    for name in FLOOR_ACTIONS:
        if name == "call_floor" or table.state.floor.message is not None:
            actions.append(ActionPicture(name))
    return tuple(actions)


def table_picture(table: Table) -> Picture:
    """What any consumer needs to draw the table now: :func:`public_state` and what the table
    knows live (docs/pit-events.md, "The table's picture"); the daemon publishes it encoded by
    :func:`controller.events.codec.to_json`."""
    view = table.state.hand.view() if table.state.hand is not None else None
    state = _state(table, view)
    live: dict[str, dict[str, int]] = {}
    for (seat, spot), wager in sorted(table.live_spots.items()):
        if wager.amount:
            live.setdefault(str(seat), {})[spot] = wager.amount
    call = table.floor_call
    settled = view if table.state.results is not None else None
    return Picture(
        **vars(state),
        device_status={name: tuple(table.device_status.get(name, ())) for name in state.devices},
        instruction=instruction(table),
        notice=table.notice,
        actions=open_actions(table),
        commands=tuple(table.game.commands),
        live=live,
        chips=table.settings.chips,
        floor_call=None if call is None else FloorCallPicture(call.seq, call.calls),
        checks=checks(table),
        stack_changes=stack_changes(table),
        moves=moves(settled),
        committed=committed(table),
        jackpots=jackpots(table),
    )


def checks(table: Table) -> tuple[Check, ...]:
    """The spots NEXT checks and what each should read then (empty while NEXT checks none)."""
    return tuple(Check(seat, spot, expected)
                 for (seat, spot), expected in sorted(table.payout_checks().items()))


def moves(view: HandView | None) -> tuple[MovePicture, ...]:
    """The settled pot game's chips to move, in order (``view``: the settled hand's public view,
    None before it is settled)."""
    if view is None:
        return ()
    return tuple(MovePicture(m.kind, m.words, m.seat, m.amount, m.pot) for m in view.moves)


def stack_changes(table: Table) -> tuple[StackChange, ...]:
    """Once the hand is settled, each stack its result changes at NEXT: ``seat``, ``change``
    (cents, below 0 for a loss) and ``stack`` (after it), as the game's ``finish`` will publish
    them (``seat.stack``, reason ``result``); ``[]`` before, and in a game without stacks."""
    state = table.state
    if state.results is None or state.hand is None or not state.session[Stacks].stacks:
        return ()
    running = dict(state.session[Stacks].stacks)
    changes: dict[int, StackChange] = {}
    for event in table.game.finish(state.hand, state.session):
        if isinstance(event, StackChanged):
            before = running.get(event.seat, 0)
            if event.reason == "result" and event.amount != before:
                changes[event.seat] = StackChange(event.seat, event.amount - before, event.amount)
            running[event.seat] = event.amount
    return tuple(changes[seat] for seat in sorted(changes))


def committed(table: Table) -> dict[str, dict[str, int]]:
    """During a hand, what each spot the hand checks should hold now: seat (a string) -> spot ->
    cents; ``{}`` between hands and once settled."""
    hand = table.state.hand
    if hand is None or table.phase != "in_hand":
        return {}
    held: dict[str, dict[str, int]] = {}
    for (seat, spot), amount in sorted(hand.committed().items()):
        held.setdefault(str(seat), {})[spot] = amount
    return held


def jackpots(table: Table) -> tuple[Jackpot, ...]:
    """Every progressive prize waiting for a supervisor (``waiting`` true: ``seat``, ``prize``,
    ``amount``), then, for each seat of the settled hand whose prize waited and is no longer
    waiting, the confirmation (``waiting`` false: ``seat``, ``amount``, ``supervisor``): the
    seat's last confirmed hit (a deal is refused while any waits, so it is this hand's)."""
    state = table.state
    progressive = state.session[Progressive]
    found = [Jackpot(seat=hit.seat, prize=hit.prize, amount=hit.amount, waiting=True)
             for hit in progressive.unpaid]
    waiting = {hit.seat for hit in progressive.unpaid}
    won = sorted({r.seat for r in state.results or () if r.outcome == WAITING} - waiting)
    for seat in won:
        paid = next((hit for hit in reversed(progressive.hits) if hit.seat == seat), None)
        if paid is not None:
            found.append(Jackpot(seat=seat, amount=paid.amount, supervisor=paid.supervisor, waiting=False))
    return tuple(found)


def instruction(table: Table) -> str:
    """The one line that tells the dealer what to do next. It names no action that is not open now
    (:func:`open_actions`), and says "Wait" only while none of the hand's is."""
    phase = table.phase
    gathering = gather.gather_words(table)
    if gathering and not table.hand_waits_for():
        return f"{gathering}."
    waiting = table.wait_words()
    if waiting:
        return f"Wait: {waiting}."
    if phase == "betting":
        problems = table.deal_problems()
        if problems:
            return "Betting is open. Before the deal: " + "; ".join(problems)
        return named_actions(table, BETTING_WORDS)
    if phase == "settled":
        return named_actions(table, SETTLED_WORDS)
    decision = table.decision()
    return named_actions(table, decision.prompt) if decision is not None else "Wait"


def action_labels(table: Table) -> dict[str, str]:
    """Every action's label by name, as the game declares it beside the action, and the table's own."""
    return {**dict(table.game.action_labels), **TABLE_ACTIONS}


def named_actions(table: Table, prompt: str) -> str:
    """The game's prompt with every action it names in capitals (``STAND``, ``TURN_UP``) that this
    table has no button for put as the dealer's screen labels it, quoted: ``“Stand”``. A table
    with the button keeps the button's name (``STAND``)."""
    labels = action_labels(table)
    actions = set(table.game.actions) | set(TABLE_BUTTONS)

    def word(match: re.Match[str]) -> str:
        name = match.group(0).lower()
        if name in actions and name not in table.settings.buttons:
            return f"\u201c{labels.get(name, name.replace('_', ' '))}\u201d"
        return match.group(0)

    return re.sub(r"\b[A-Z][A-Z_]+\b", word, prompt)


def device_words(table: Table, name: str, device: DevicePicture) -> str:
    """A board's state for the dealer: online (with any STATUS flag raised) or offline and why."""
    if not device.online:
        return f"offline: {device.reason}"
    flags = table.device_status.get(name, ())
    return f"online ({', '.join(flags)})" if flags else "online"


def _result_lines(results: tuple[WagerResult, ...]) -> tuple[dict[int, list[str]], list[str]]:
    by_seat: dict[int, list[str]] = {}
    payouts: list[str] = []
    split = split_spots((r.seat, r.spot, r.hand_index) for r in results)
    for result in results:
        payout = result.payout
        words = "push" if payout == 0 else (
            f"pay {dollars(payout)}" if payout > 0 else f"collect {dollars(-payout)}")
        hand = hand_number(result.hand_index, (result.seat, result.spot) in split)
        by_seat.setdefault(result.seat, []).append(f"{result.spot}{hand}: {words}")
        payouts.append(f"Seat {result.seat} {result.spot}{hand}: {words.upper()}")
    return by_seat, payouts


def dealer_view(table: Table, snapshot: PublicState | None = None) -> TableView:
    """What the dealer display shows now; ``snapshot`` is :func:`public_state` (or the picture) if
    the caller has it already."""
    if snapshot is None:
        snapshot = public_state(table)
    state = table.state
    view: HandView | None = state.hand.view() if state.hand is not None else None
    live = {key: w.amount for key, w in table.live_spots.items() if w.amount}
    results, payouts = _result_lines(snapshot.results or ())
    if view is not None and view.payouts:
        # A game that words its own payouts words the whole settlement: no pay/collect line per
        # seat beside them (in a pot game the house neither pays nor collects).
        results, payouts = {}, list(view.payouts)
    committed = state.hand.committed() if state.hand is not None else {}
    seat_alerts: dict[int, str] = {}
    for alert in snapshot.alerts:
        if alert.seat is not None and alert.hand == snapshot.hand:
            spot = alert.about.get("spot")
            key = (alert.seat, spot) if isinstance(spot, str) else None
            if alert.code == "past_post" and table.phase == "in_hand" and \
                    (key is None or live.get(key, 0) == committed.get(key, 0)):
                seat_alerts.pop(alert.seat, None)       # the chips were put right
                continue
            seat_alerts[alert.seat] = alert.code.replace("_", " ")
    seats = []
    chips: dict[int, dict[str, str]] = {}
    for (at, spot), amount in sorted(live.items()):
        chips.setdefault(at, {})[spot] = dollars(amount)
    for seat in snapshot.seats:
        wagers = chips.get(seat.seat, {})
        if not wagers and not seat.hands and seat.stack is None:
            continue
        seats.append(SeatView(
            seat=seat.seat, wagers=wagers,
            hands=tuple(HandLine(h.cards, h.total, h.status) for h in seat.hands),
            in_turn=seat.in_turn, result="; ".join(results.get(seat.seat, [])) or None,
            alert=seat_alerts.get(seat.seat),
            stack=dollars(seat.stack) if seat.stack is not None else None,
        ))
    recent = [a for a in snapshot.alerts if a.hand in (None, snapshot.hand)][-4:]
    notices = [f"{a.code}: {a.message}" for a in recent]
    said = snapshot.instruction if isinstance(snapshot, Picture) else None
    return TableView(
        table_id=snapshot.table, game=snapshot.game, hand=snapshot.hand,
        phase=snapshot.phase, instruction=said or instruction(table),
        seats=tuple(seats),
        dealer_cards=snapshot.dealer.cards, dealer_total=snapshot.dealer.total,
        live_buttons=snapshot.live_buttons, alerts=tuple(notices),
        devices={name: device_words(table, name, d) for name, d in snapshot.devices.items()},
        payouts=tuple(payouts), dealer_seat=snapshot.dealer.seat, notice=table.notice or None,
        message=table.state.floor.message,
        pots=tuple(f"Pot {n + 1}: {dollars(p.amount)} for seats "
                   f"{', '.join(map(str, p.seats))}" for n, p in enumerate(snapshot.pots)),
    )
