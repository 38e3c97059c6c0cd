"""The two public views of a table: the pit's snapshot state and the dealer display's view model.

Both are built from the same state and both keep face-down cards hidden: a
card the game has not revealed is ``None`` here, whatever the table knows.
"""

from __future__ import annotations

from typing import Any

from controller.table.machine import IN_HAND, Table
from drivers.display import SeatView, TableView, format_money

DEALER_WORDS = {
    "betting": "Betting is open",
    "settled": "Pay and collect as shown, then press NEXT",
}


def _total_words(total: Any) -> str | None:
    if total.cards == 0:
        return None
    if total.natural:
        return "natural"
    if total.bust:
        return f"bust {total.points}"
    return f"soft {total.points}" if total.soft else str(total.points)


def _hand_cards(held: Any, revealed: bool) -> tuple[str | None, ...]:
    return tuple(str(c.card) if c.face_up or revealed else None for c in held)


def public_state(table: Table) -> dict[str, Any]:
    """The table's whole state as a snapshot shows it (pit-events.md section 2)."""
    state = table.state
    hand = state.hand
    seats: list[dict[str, Any]] = []
    for seat in range(1, table.settings.seats + 1):
        bets = {spot: amount for (s, spot), amount in sorted(state.bets.items()) if s == seat}
        entry: dict[str, Any] = {"seat": seat, "bets": bets, "cards": [], "total": None,
                                 "in_turn": False}
        if hand is not None:
            for held in hand.seats:
                if held.seat == seat:
                    entry["cards"] = list(_hand_cards(held.cards, True))
                    entry["total"] = _total_words(held.total())
                    entry["in_turn"] = table.seat_in_turn() == seat
        seats.append(entry)
    dealer: dict[str, Any] = {"cards": [], "total": None}
    if hand is not None:
        dealer["cards"] = list(_hand_cards(hand.dealer, hand.hole_revealed))
        dealer["total"] = _total_words(hand.dealer_total(include_hole=False))
    shoe = state.shoe
    return {
        "table": table.settings.table_id,
        "game": table.settings.game_name,
        "phase": table.phase,
        "hand": state.hand_no if state.in_hand else None,
        "next_hand": state.hand_no + 1,
        "seats": seats,
        "dealer": dealer,
        "results": list(state.results) if state.results is not None else None,
        "devices": {
            name: {"online": d.online, "firmware": d.firmware, "serial": d.serial, "reason": d.reason}
            for name, d in sorted(state.devices.items())
        },
        "shoe": {"shoe_id": shoe.shoe_id, "decks": shoe.decks, "cards_drawn": shoe.last_index,
                 "cut_card_out": shoe.cut_card_out},
        "live_buttons": list(table.live_buttons()),
        "alerts": list(state.alerts),
        "meters": {"hands": state.hand_no},
    }


def instruction(table: Table) -> str:
    """The one line that tells the dealer what to do next."""
    phase = table.phase
    offline = [name for name, d in sorted(table.state.devices.items()) if not d.online]
    if offline and phase in IN_HAND:
        return f"Wait: the {' and '.join(offline)} is offline. The hand goes on when it is back."
    if phase == "betting":
        problems = table.deal_problems()
        if problems:
            return "Betting is open. Before DEAL: " + "; ".join(problems)
        return "Betting is open. Press DEAL to close betting and deal."
    if phase == "settled":
        return DEALER_WORDS["settled"]
    target = table.state.hand.next_target() if table.state.hand is not None else None
    if phase == "players" and target is not None:
        return f"Seat {target.seat}: draw a card to hit, or press STAND"
    if target is None:
        return "Wait"
    if target.to == "dealer":
        way = "face up" if target.face_up else "face down"
        return f"Deal the dealer a card {way}"
    return f"Deal a card face up to seat {target.seat}"


def device_words(table: Table, name: str, device: dict[str, Any]) -> str:
    """A board's state for the dealer: online (with any STATUS flag raised) or offline and why."""
    if not device["online"]:
        return f"offline: {device['reason']}"
    flags = table.device_status.get(name, ())
    return f"online ({', '.join(flags)})" if flags else "online"


def dealer_view(table: Table) -> TableView:
    """What the dealer display shows now."""
    snapshot = public_state(table)
    live = {key: w.amount for key, w in table.live_spots.items() if w.amount}
    results: dict[int, list[str]] = {}
    payouts: list[str] = []
    for result in snapshot["results"] or []:
        payout = result["payout"]
        words = "push" if payout == 0 else (
            f"pay {format_money(payout)}" if payout > 0 else f"collect {format_money(-payout)}")
        results.setdefault(result["seat"], []).append(f"{result['spot']}: {words}")
        payouts.append(f"Seat {result['seat']} {result['spot']}: {words.upper()}")
    seat_alerts: dict[int, str] = {}
    for alert in snapshot["alerts"]:
        if alert.get("seat") is not None and alert.get("hand") == snapshot["hand"]:
            seat_alerts[alert["seat"]] = alert["code"].replace("_", " ")
    seats = []
    for seat in snapshot["seats"]:
        wagers = {spot: amount for (s, spot), amount in sorted(live.items()) if s == seat["seat"]}
        if not wagers and not seat["cards"]:
            continue
        seats.append(SeatView(
            seat=seat["seat"], wagers=wagers, cards=tuple(seat["cards"]), total=seat["total"],
            in_turn=seat["in_turn"], result="; ".join(results.get(seat["seat"], [])) or None,
            alert=seat_alerts.get(seat["seat"]),
        ))
    recent = [a for a in snapshot["alerts"] if a.get("hand") in (None, snapshot["hand"])][-4:]
    notices = [f"{a['code']}: {a['message']}" for a in recent]
    if table.notice:
        notices.append(table.notice)
    return TableView(
        table_id=snapshot["table"], game=snapshot["game"], hand=snapshot["hand"],
        phase=snapshot["phase"], instruction=instruction(table), seats=tuple(seats),
        dealer_cards=tuple(snapshot["dealer"]["cards"]), dealer_total=snapshot["dealer"]["total"],
        live_buttons=tuple(snapshot["live_buttons"]), alerts=tuple(notices),
        devices={name: device_words(table, name, d) for name, d in snapshot["devices"].items()},
        payouts=tuple(payouts),
    )
