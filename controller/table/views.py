"""The public views of a table: its state, the picture every consumer draws, the dealer display's model.

:func:`public_state` is what the journal alone determines (a restart rebuilds
it exactly). :func:`table_picture` adds what the table knows live (the chips on
each spot now, the boards' STATUS flags, the last refusal), the dealer's
instruction and the actions and commands open now: it is the snapshot's
``state`` and the ``data`` of every ``table.view`` message (docs/pit-events.md),
so a consumer draws the table from the stream alone. All are built from the
table's state and the game's own public view of the hand (:meth:`Hand.view`),
so all keep face-down cards hidden and none holds any game's words: what the
dealer is told to do next is the game's ``prompt``.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Any

from controller.commands.table import TABLE_ACTIONS
from controller.games.interface import Button, HandView, Progressive, Stacks, Tournament
from controller.games.parts.hand_names import hand_number, split_spots
from controller.table.buttons import table_refusal
from controller.table.machine import FLOOR_ACTIONS, TABLE_BUTTONS, Table, waiting_words
from controller.table.money_view import money_picture
from drivers.display import HandLine, SeatView, TableView
from firmware_bridge.kernel.money import dollars

BETTING_WORDS = "Betting is open. Press DEAL to close betting and deal."
SETTLED_WORDS = "Pay and collect as shown, then press NEXT"


def public_state(table: Table) -> dict[str, Any]:
    """The table's whole state as a snapshot shows it (docs/pit-events.md, sync socket)."""
    return _state(table, table.state.hand.view() if table.state.hand is not None else None)


def _state(table: Table, view: HandView | None) -> dict[str, Any]:
    """:func:`public_state`, the hand in play's public ``view`` given (None between hands)."""
    state = table.state
    in_hand = {s.seat: s for s in view.seats} if view is not None else {}
    decision = table.decision()
    seats: list[dict[str, Any]] = []
    stacks = state.session[Stacks].stacks
    for seat in range(1, table.settings.seats + 1):
        bets = {spot: amount for (s, spot), amount in sorted(state.bets.items()) if s == seat}
        held = in_hand[seat].hands if seat in in_hand else ()
        hands = [{**asdict(h), "cards": list(h.cards)} for h in held]
        first = hands[0] if hands else {"cards": [], "total": None}
        entry: dict[str, Any] = {
            "seat": seat, "bets": bets, "cards": list(first["cards"]), "total": first["total"],
            "hands": hands, "in_turn": decision is not None and decision.seat == seat,
        }
        if seat in stacks:
            entry["stack"] = stacks[seat]
        seats.append(entry)
    dealer: dict[str, Any] = {"cards": [], "total": None, "seat": None}
    if view is not None and view.dealer is not None:
        dealer = {"cards": list(view.dealer.cards), "total": view.dealer.total, "seat": view.dealer_seat}
    shoe = state.shoe
    tournament = state.session[Tournament]
    return {
        "table": table.settings.table_id,
        "game": table.settings.game_name,
        "phase": view.phase if view is not None and table.phase == "in_hand" else table.phase,
        "table_phase": table.phase,
        "hand": state.hand_no if state.in_hand else None,
        "next_hand": state.hand_no + 1,
        "seats": seats,
        "dealer": dealer,
        "pots": [{"amount": p.amount, "seats": list(p.seats)} for p in view.pots] if view else [],
        "results": list(state.results) if state.results is not None else None,
        "devices": {
            name: {"online": d.online, "firmware": d.firmware, "serial": d.serial, "reason": d.reason}
            for name, d in sorted(state.devices.items())
        },
        "shoe": {"shoe_id": shoe.shoe_id, "decks": shoe.decks, "cards_drawn": shoe.last_index,
                 "cut_card_out": shoe.cut_card_out},
        "live_buttons": list(table.live_buttons()),
        "alerts": list(state.alerts),
        "session": {"button": state.session[Button].seat, "level": tournament.level,
                    "blinds": list(tournament.blinds), "level_ends_at": tournament.ends_at},
        "meters": {"hands": state.hand_no, **state.session[Progressive].meters},
        "limits": table.limits(),
        "closed": state.floor.closed,
        "message": state.floor.message,
        "tray": None if not table.settings.tray else {
            "amount": state.tray.amount, "at_hand_start": state.tray.at_start if state.in_hand else None,
            "expected": state.tray.expected,
            "chips": None if state.tray.chips is None else {str(value): count for value, count
                                                            in sorted(state.tray.chips.items())}},
        "books": state.books.to_json(),
    }


def open_actions(table: Table) -> list[dict[str, Any]]:
    """Every action that may be taken now, as the control socket's ``act`` takes it.

    The table's own (``deal``, ``next``, ``void``) when the machine allows them,
    then the game's actions the hand offers now, each with the seat and hand it
    is for, the amount range in cents (``low``/``high``, null when it takes no
    amount) and the ``spot`` whose chips carry the amount (null: the amount
    comes with the command); last the dealer's towards the pit: ``call_floor``
    always, ``acknowledge`` while the pit's message is shown.
    """
    decision = table.decision()
    actions: list[dict[str, Any]] = []
    game_actions = decision.actions if decision is not None else {}
    for name in TABLE_BUTTONS:
        if name not in game_actions and table_refusal(table, name) is None:
            actions.append({"name": name, "seat": None, "hand_index": None,
                            "low": None, "high": None, "spot": None})
    if decision is not None:
        for name, option in table.offered().items():
            actions.append({"name": name, "seat": decision.seat, "hand_index": decision.hand_index,
                            "low": option.low, "high": option.high, "spot": option.spot})
    for name in FLOOR_ACTIONS:
        if name == "call_floor" or table.state.floor.message is not None:
            actions.append({"name": name, "seat": None, "hand_index": None,
                            "low": None, "high": None, "spot": None})
    return actions


def table_picture(table: Table) -> dict[str, Any]:
    """What any consumer needs to draw the table now: :func:`public_state` and what the table
    knows live (docs/pit-events.md, "The table's picture")."""
    view = table.state.hand.view() if table.state.hand is not None else None
    picture = _state(table, view)
    live: dict[str, dict[str, int]] = {}
    for (seat, spot), wager in sorted(table.live_spots.items()):
        if wager.amount:
            live.setdefault(str(seat), {})[spot] = wager.amount
    picture.update({
        "device_status": {name: list(table.device_status.get(name, ())) for name in picture["devices"]},
        "instruction": instruction(table),
        "notice": table.notice,
        "actions": open_actions(table),
        "commands": list(table.game.commands),
        "live": live,
        "chips": list(table.settings.chips),
        "floor_call": None if table.floor_call is None else
        {"seq": table.floor_call.seq, "calls": table.floor_call.calls},
    })
    picture.update(money_picture(table, view if table.state.results is not None else None))
    return picture


def instruction(table: Table) -> str:
    """The one line that tells the dealer what to do next. It names no action that is not open now
    (:func:`open_actions`), and says "Wait" only while none of the hand's is."""
    phase = table.phase
    offline = table.hand_waits_for()
    if offline:
        return f"Wait: {waiting_words(offline)}."
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


def device_words(table: Table, name: str, device: dict[str, Any]) -> str:
    """A board's state for the dealer: online (with any STATUS flag raised) or offline and why."""
    if not device["online"]:
        return f"offline: {device['reason']}"
    flags = table.device_status.get(name, ())
    return f"online ({', '.join(flags)})" if flags else "online"


def _result_lines(results: list[dict[str, Any]]) -> tuple[dict[int, list[str]], list[str]]:
    by_seat: dict[int, list[str]] = {}
    payouts: list[str] = []
    split = split_spots((r["seat"], r["spot"], r["hand_index"]) for r in results)
    for result in results:
        payout = result["payout"]
        words = "push" if payout == 0 else (
            f"pay {dollars(payout)}" if payout > 0 else f"collect {dollars(-payout)}")
        hand = hand_number(result["hand_index"], (result["seat"], result["spot"]) in split)
        by_seat.setdefault(result["seat"], []).append(f"{result['spot']}{hand}: {words}")
        payouts.append(f"Seat {result['seat']} {result['spot']}{hand}: {words.upper()}")
    return by_seat, payouts


def dealer_view(table: Table, snapshot: dict[str, Any] | None = None) -> TableView:
    """What the dealer display shows now; ``snapshot`` is :func:`public_state` (or the picture) if
    the caller has it already."""
    if snapshot is None:
        snapshot = public_state(table)
    state = table.state
    view: HandView | None = state.hand.view() if state.hand is not None else None
    live = {key: w.amount for key, w in table.live_spots.items() if w.amount}
    results, payouts = _result_lines(snapshot["results"] or [])
    if view is not None and view.payouts:
        # A game that words its own payouts words the whole settlement: no pay/collect line per
        # seat beside them (in a pot game the house neither pays nor collects).
        results, payouts = {}, list(view.payouts)
    committed = state.hand.committed() if state.hand is not None else {}
    seat_alerts: dict[int, str] = {}
    for alert in snapshot["alerts"]:
        if alert.get("seat") is not None and alert.get("hand") == snapshot["hand"]:
            key = (alert["seat"], alert.get("spot"))
            if alert["code"] == "past_post" and table.phase == "in_hand" and \
                    live.get(key, 0) == committed.get(key, 0):
                seat_alerts.pop(alert["seat"], None)       # the chips were put right
                continue
            seat_alerts[alert["seat"]] = alert["code"].replace("_", " ")
    seats = []
    for seat in snapshot["seats"]:
        wagers = {spot: dollars(amount) for (s, spot), amount in sorted(live.items()) if s == seat["seat"]}
        if not wagers and not seat["hands"] and "stack" not in seat:
            continue
        seats.append(SeatView(
            seat=seat["seat"], wagers=wagers,
            hands=tuple(HandLine(tuple(h["cards"]), h["total"], h["status"]) for h in seat["hands"]),
            in_turn=seat["in_turn"], result="; ".join(results.get(seat["seat"], [])) or None,
            alert=seat_alerts.get(seat["seat"]),
            stack=dollars(seat["stack"]) if "stack" in seat else None,
        ))
    recent = [a for a in snapshot["alerts"] if a.get("hand") in (None, snapshot["hand"])][-4:]
    notices = [f"{a['code']}: {a['message']}" for a in recent]
    return TableView(
        table_id=snapshot["table"], game=snapshot["game"], hand=snapshot["hand"],
        phase=snapshot["phase"], instruction=snapshot.get("instruction") or instruction(table),
        seats=tuple(seats),
        dealer_cards=tuple(snapshot["dealer"]["cards"]), dealer_total=snapshot["dealer"]["total"],
        live_buttons=tuple(snapshot["live_buttons"]), alerts=tuple(notices),
        devices={name: device_words(table, name, d) for name, d in snapshot["devices"].items()},
        payouts=tuple(payouts), dealer_seat=snapshot["dealer"]["seat"], notice=table.notice or None,
        message=table.state.floor.message,
        pots=tuple(f"Pot {n + 1}: {dollars(p['amount'])} for seats "
                   f"{', '.join(map(str, p['seats']))}" for n, p in enumerate(snapshot["pots"])),
    )
