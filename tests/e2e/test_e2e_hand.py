"""End to end: the daemon as a subprocess, boards simulated on ptys, the pit stream checked event by event."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.rigs.daemon_rig import TableRig, chip


def test_a_dealer_runs_a_hand_from_bets_to_the_next_hand(unpaid: TableRig) -> None:
    rig = unpaid
    opened = rig.start()
    assert opened["seq"] == 1 and opened["hand"] is None
    assert opened["data"] == {"game": "easy-jack", "seats": 6,
                              "limits": {"min_bet": 500, "max_bet": 50000}, "recovered": False,
                              "rules": {"decks": 6, "peek_for_ace": False, "natural_pays_6_5": False,
                                        "stand_on_11": False,
                                        "dealer_bust_pays": {"2": 3, "3": 4, "4": 10, "5": 50, "6": 500}}}
    loaded = rig.load(["5h", "4c", "9d", "3s", "6d", "2c", "Kh"])
    assert loaded["data"] == {"shoe_id": loaded["data"]["shoe_id"], "decks": 6}

    refused = rig.pit.press("deal")
    assert refused == {"ok": False, "error": "deal: no seat has a main wager"}

    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    bet = rig.next("bet.placed")
    assert (bet["hand"], bet["data"]) == (1, {"seat": 1, "spot": "main", "amount": 1000})
    rig.bet(3, "main", chip("b", 1))
    rig.next("bet.placed", seat=3, spot="main")
    rig.bet(3, "side", chip("a", 3))
    rig.next("bet.placed", seat=3, spot="side")

    assert rig.pit.press("deal") == {"ok": True}
    started, closed = rig.next(), rig.next()
    assert (started["type"], started["hand"], started["data"]) == (
        "hand.started", 1, {"seats": [1, 3], "dealer_seat": None})
    assert (closed["type"], closed["hand"]) == ("bets.closed", 1)
    assert closed["data"]["bets"] == [{"seat": 1, "spot": "main", "amount": 1000},
                                      {"seat": 3, "spot": "main", "amount": 2500},
                                      {"seat": 3, "spot": "side", "amount": 500}]

    dealt = [rig.draw() for _ in range(3)]
    assert [(d["type"], d["data"]["to"], d["data"]["seat"], d["data"]["card"], d["data"]["face_up"])
            for d in dealt] == [("card.dealt", "seat", 1, "5h", True),
                                ("card.dealt", "seat", 3, "4c", True),
                                ("card.dealt", "dealer", None, None, False)]
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["dealer"]["cards"] == [None] and "9d" not in json.dumps(state)
    assert state["phase"] == "players" and state["live_buttons"] == ["stand", "void"]

    assert rig.draw()["data"]["card"] == "3s"                 # seat 1 hits
    assert rig.pit.press("stand") == {"ok": True}
    action = rig.next("player.action")
    assert action["data"] == {"seat": 1, "hand_index": 0, "action": "stand"}
    assert rig.draw()["data"] == {"index": 5, "to": "seat", "seat": 3, "hand_index": 0,
                                  "card": "6d", "face_up": True}
    assert rig.pit.press("next")["ok"] is False                # not settled yet
    rig.pit.press("stand")
    rig.next("player.action", seat=3)
    revealed = rig.next()
    assert (revealed["type"], revealed["data"]) == ("card.revealed", {
        "index": 3, "to": "dealer", "seat": None, "hand_index": 0, "card": "9d"})
    settled = rig.next()
    assert settled["type"] == "hand.settled"
    assert settled["data"]["results"] == [
        {"seat": 1, "spot": "main", "hand_index": 0, "outcome": "lose", "wager": 1000, "payout": -1000},
        {"seat": 3, "spot": "main", "hand_index": 0, "outcome": "win", "wager": 2500, "payout": 2500},
        {"seat": 3, "spot": "side", "hand_index": 0, "outcome": "lose", "wager": 500, "payout": -500}]

    rig.bet(1, "main")                                         # collecting after settlement: no alert
    rig.bet(3, "side")
    assert rig.pit.press("next") == {"ok": True}
    ended = rig.next("hand.ended")
    assert (ended["hand"], ended["data"]) == (1, {"hand": 1})
    after = [rig.next("bet.placed") for _ in range(2)]
    assert {(b["data"]["seat"], b["data"]["spot"], b["data"]["amount"], b["hand"]) for b in after} == {
        (1, "main", 0, 2), (3, "side", 0, 2)}

    links = rig.pit.control({"cmd": "links"})["links"]
    assert links["shoe"]["online"] and links["rfid"]["online"]
    assert links["shoe"]["frames_received"] > 0 and links["shoe"]["crc_errors"] == 0
    assert rig.pit.control({"cmd": "dance"}) == {"ok": False, "error": "unknown command 'dance'"}

    events = rig.pit.taken()
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert not [e for e in events if e["type"] == "alert"]
    assert "Seat 3 main: PAY $25.00" in rig.log_text()          # the dealer display showed the payouts


def test_a_late_subscriber_catches_up_through_sync(rig: TableRig) -> None:
    rig.start()
    rig.load(["5h", "9d", "Kc"])
    rig.bet(2, "main", chip("a", 1))
    rig.next("bet.placed")
    rig.pit.press("deal")
    rig.next("bets.closed")
    rig.draw()
    rig.draw()
    rig.pit.drain()
    seen = list(rig.pit.raw)

    snapshot = rig.pit.sync(b"snapshot")[0]
    assert snapshot[0] == b"snapshot"
    state = json.loads(snapshot[1])
    assert state["seq"] == json.loads(seen[-1][1])["seq"]
    assert state["state"]["hand"] == 1 and state["state"]["dealer"]["cards"] == [None]
    assert state["state"]["seats"][1]["cards"] == ["5h"]

    replies = rig.pit.sync(b"replay", b"1")
    assert replies[-1] == [b"end", str(len(seen)).encode()]
    assert [(topic, body) for _, topic, body in replies[:-1]] == seen   # byte for byte
    middle = rig.pit.sync(b"replay", b"4")
    assert [body for _, _, body in middle[:-1]] == [body for _, body in seen[3:]]
    assert rig.pit.sync(b"replay", b"x")[0][0] == b"error"


def test_sigterm_stops_cleanly_and_a_bad_config_stops_at_start(rig: TableRig, tmp_path: Path) -> None:
    rig.start()
    assert rig.kill(15) == 0
    bad = tmp_path / "bad.toml"
    bad.write_text(rig.config.read_text().replace("seats = 6", "seats = 0").replace(
        "min_bet = 500", "min_bet = -5").replace('game = "easy-jack"', 'game = "easy-jack"\ncolour = 1'))
    result = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(bad)],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) >= 3, lines
    assert any("table.seats" in line for line in lines)
    assert any("limits.min_bet" in line for line in lines)
    assert any("table.colour" in line for line in lines)
    assert "Traceback" not in result.stderr


def test_void_cancels_the_hand_in_play_and_settles_nothing(rig: TableRig) -> None:
    rig.start()
    rig.load(["5h", "9d", "Kc", "2c", "7s"], cut_at=0)
    rig.bet(4, "main", chip("b", 1))
    rig.next("bet.placed")
    assert rig.pit.press("void") == {"ok": False, "error": "void: no hand is in play"}
    rig.pit.press("deal")
    rig.draw()
    assert rig.pit.press("void") == {"ok": True}
    voided = rig.next()
    assert (voided["type"], voided["hand"], voided["data"]) == (
        "hand.voided", 1, {"reason": "voided by the dealer"})
    state = rig.pit.control({"cmd": "state"})["state"]
    assert (state["phase"], state["hand"], state["live_buttons"]) == ("betting", None, ["deal"])
    rig.pit.press("deal")
    assert rig.next("hand.started")["hand"] == 2
    assert not [e for e in rig.pit.taken() if e["type"] == "hand.settled"]
