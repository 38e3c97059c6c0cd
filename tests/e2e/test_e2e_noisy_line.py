"""End to end on bad lines: both boards drop and corrupt frames while hands are played.

The link must hide all of it: the pit stream shows every card exactly once, in
the shoe's order, and no alert that the line itself caused.
"""

from __future__ import annotations

from tests.rigs.daemon_rig import TableRig, chip

CARDS = ["5h", "4c", "9d", "3s", "6d", "2c", "Kh", "7s", "8c", "As", "Td", "2h", "3h", "4h"] * 3


def test_hands_on_lines_that_drop_a_fifth_and_corrupt_a_tenth_of_the_frames(unpaid: TableRig) -> None:
    rig = unpaid
    rig.start()
    for board in (rig.shoe, rig.rfid):
        board.cmd("drop", rate=0.2)
        board.cmd("corrupt", rate=0.1)
    rig.load(CARDS, cut_at=0)
    hands = 0
    while hands < 3:
        rig.bet(1, "main", chip("a", hands + 1))
        rig.bet(2, "main", chip("b", hands + 1))
        rig.bet(2, "side", chip("a", hands + 10))
        rig.rfid.cmd("wait_idle")                                   # every reading has reached the table
        state = rig.pit.control({"cmd": "state"})["state"]
        assert state["seats"][0]["bets"] == {"main": 500}
        assert state["seats"][1]["bets"] == {"main": 2500, "side": 500}
        assert rig.pit.press("deal") == {"ok": True}
        while True:
            phase = rig.pit.control({"cmd": "state"})["state"]["phase"]
            if phase == "settled":
                break
            if phase == "players" and rig.pit.press("stand")["ok"]:
                rig.next("player.action")
                continue
            rig.shoe.cmd("draw")
            rig.next("card.dealt")
        rig.pit.press("next")
        rig.next("hand.ended")
        hands += 1
    rig.pit.drain()
    events = rig.pit.events
    dealt = [e["data"]["index"] for e in events if e["type"] == "card.dealt"]
    assert dealt == list(range(1, len(dealt) + 1))               # each card once, in order
    assert [e["data"]["code"] for e in events if e["type"] == "alert"] == []
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    links = rig.pit.control({"cmd": "links"})["links"]
    assert links["shoe"]["crc_errors"] + links["shoe"]["framing_errors"] > 0   # the line was bad
    assert links["shoe"]["online"] and links["rfid"]["online"]
