"""The rated-play engine against hands whose results are known (hand-made event sequences).

Theo is checked against the exact edge figures ``table-controller math`` prints; banked hands
count apart (a Blackjack Extreme-like and a Buster Blackjack X-like table); a rake game's share.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from fractions import Fraction

import pytest

from controller.podium.ratings.rating import (
    PIT,
    REPLACED,
    TABLE_CLOSED,
    Rating,
    RatingError,
    TableRatings,
    player_id,
    time_played,
)
from tests.monitor.ratings_script import (
    BBX_MAIN,
    BUSTER,
    EASY_JACK,
    EJ_MAIN,
    EJ_SIDE,
    EXTREME,
    HOLDEM,
    Script,
    result,
)
from tests.rigs.followed import followed

NOW = datetime.datetime(2026, 11, 21, 12, 0, tzinfo=datetime.UTC)


def rating(id: int, seat: int, opened: str, closed: str | None = None, *, table: str = "T07",
           edges: object = EASY_JACK, player: str = "P-1") -> Rating:
    ts = Script().ts
    return Rating(id, player, table, seat, ts(opened), "alice", edges,  # type: ignore[arg-type]
                  None if closed is None else ts(closed), None if closed is None else "bob",
                  None if closed is None else PIT)


def fed(script: Script, *ratings: Rating) -> TableRatings:
    book = TableRatings(script.table)
    for r in ratings:
        book.add(r)
    for message in script.messages:
        book.feed(followed(message), "1")
    return book


def test_an_easy_jack_rating_counts_its_seat_s_hands_while_open_and_theo_is_wagers_times_edges() -> None:
    s = Script()
    s.play("09:50:00", "09:50:30", [result(3, "main", 9900, 9900)])            # before the rating
    s.play("10:00:00", "10:00:30", [result(3, "main", 1000, 1000), result(1, "main", 500, -500)])
    s.play("10:20:00", "10:20:30", [result(3, "main", 2000, -2000), result(3, "side", 500, 1500)])
    s.play("10:30:00", "10:30:05", [result(3, "main", 7700, 0)], void=True)     # voided: nothing
    s.play("10:40:00", "10:40:30", [result(3, "main", 1000, 0)])
    s.play("11:00:00", "11:00:30", [result(3, "main", 5000, 5000)])            # after it closed
    book = fed(s, rating(1, 3, "09:55:00", "10:45:00"), rating(2, 1, "09:55:00"))
    f = book.figures(1, NOW)
    assert (f.hands, f.banked, f.wagered, f.actual, f.bank) == (3, 0, 4500, 500, 0)
    assert f.seconds == 50 * 60 and f.average_bet == 1500
    assert {n: (w.hands, w.wagered, w.average) for n, w in f.spots.items()} == {
        "main": (3, 4000, 1333), "side": (1, 500, 500)}
    assert f.theo.value == pytest.approx(4000 * EJ_MAIN + 500 * EJ_SIDE, rel=1e-15)
    assert f.theo.interval is None and not f.theo.no_edge                       # exact edges
    assert [(t.spot, t.wagered, t.edge.house_edge) for t in f.theo.terms] == [
        ("main", 4000, EJ_MAIN), ("side", 500, EJ_SIDE)]                         # what an audit redoes
    open_one = book.figures(2, NOW)                                             # still open: time to now
    assert (open_one.hands, open_one.actual, open_one.seconds) == (1, -500, 2 * 3600 + 5 * 60)
    total = f + open_one
    assert (total.hands, total.wagered, total.actual) == (4, 5000, 0)
    assert total.theo.value == pytest.approx(f.theo.cents + 500 * EJ_MAIN)
    assert book.problems == []


def test_a_rating_without_edges_has_an_unknown_theo_never_zero() -> None:
    s = Script()
    s.play("10:00:00", "10:00:30", [result(2, "main", 1000, -1000)])
    book = fed(s, rating(1, 2, "09:00:00", edges=None), rating(2, 2, "09:00:00", player="P-2"))
    unknown = book.figures(1, NOW)
    assert unknown.theo.value is None and unknown.theo.interval is None
    assert unknown.theo.to_json()["cents"] is None
    assert (unknown + book.figures(2, NOW)).theo.value is None                  # a total with it: unknown
    assert book.figures(2, NOW).theo.value == pytest.approx(1000 * EJ_MAIN)


def test_jackpots_paid_to_the_seat_count_in_the_actual_result() -> None:
    s = Script()
    s.play("10:00:00", "10:00:30", [result(1, "main", 1000, 1000),
                                    result(1, "progressive", 100, -100, "waiting")])
    waiting = rating(1, 1, "09:00:00")
    assert fed(s, waiting).figures(1, NOW).waiting == 1
    s.add("10:05:00", "progressive.paid", None, {"seat": 1, "amount": 100_005, "supervisor": "S101"})
    s.add("10:06:00", "progressive.paid", None, {"seat": 2, "amount": 5, "supervisor": "S101"})
    f = fed(s, waiting).figures(1, NOW)
    assert (f.actual, f.jackpots, f.waiting) == (1000 - 100 + 100_005, 100_005, 0)


def test_banked_hands_count_apart_and_a_player_banked_wager_carries_no_theo() -> None:
    """Blackjack Extreme-like: seat 1 deals and banks every wager; the house has no edge."""
    s = Script()
    s.play("10:00:00", "10:01:00", [result(2, "main", 3000, 3000), result(3, "main", 1000, -1000),
                                    result(4, "main", 1000, -500, "fold")], dealer=1)
    s.play("10:02:00", "10:03:00", [result(1, "main", 2000, 2000), result(3, "main", 1000, -1000)], dealer=2)
    book = fed(s, rating(1, 1, "09:00:00", edges=EXTREME), rating(2, 2, "09:00:00", edges=EXTREME))
    dealer = book.figures(1, NOW)
    assert (dealer.hands, dealer.banked, dealer.bank) == (1, 1, -1500)
    assert (dealer.wagered, dealer.actual) == (2000, 2000)
    assert dealer.theo.value == 0 and not dealer.theo.no_edge               # nothing for the house
    player = book.figures(2, NOW)
    assert (player.hands, player.banked, player.actual, player.bank) == (1, 1, 3000, -1000)


def test_buster_blackjack_x_the_house_keeps_its_edge_on_what_it_banks_with_a_player_dealer() -> None:
    """Seat 1 deals: seat 2's main is the bank's (no theo), its bonus the house's; the next hand the
    house deals, and the main wager's simulated edge gives an interval."""
    s = Script()
    s.play("10:00:00", "10:01:00", [result(2, "main", 2000, -2000), result(2, "side", 500, 2500)], dealer=1)
    s.play("10:02:00", "10:03:00", [result(2, "main", 3000, 3000), result(2, "insurance", 1000, -1000)])
    book = fed(s, rating(1, 2, "09:00:00", edges=BUSTER), rating(2, 1, "09:00:00", edges=BUSTER))
    f = book.figures(1, NOW)
    assert {n: (w.hands, w.wagered, w.player_dealt) for n, w in f.spots.items()} == {
        "main": (2, 5000, 2000), "side": (1, 500, 500), "insurance": (1, 1000, 0)}
    side, insurance = BUSTER.spots["side"].house_edge, BUSTER.spots["insurance"].house_edge
    exact = 1000 * insurance + 3000 * BBX_MAIN.house_edge + 500 * side
    assert f.theo.value == pytest.approx(exact, rel=1e-15)
    assert BBX_MAIN.interval is not None and f.theo.interval == pytest.approx(
        (1000 * insurance + 3000 * BBX_MAIN.interval[0] + 500 * side,
         1000 * insurance + 3000 * BBX_MAIN.interval[1] + 500 * side))
    bank = book.figures(2, NOW)
    assert (bank.hands, bank.banked, bank.bank) == (0, 1, 2000)              # the bonus is not the bank's


def test_buster_blackjack_x_the_bank_s_collection_fee_is_the_house_s_on_every_hand_banked() -> None:
    """Seat 1 banks two hands with a $1.00 collection fee: the house takes $2.00 from the bank, a
    certain win in its theo (no interval of its own), out of the bank's result."""
    s = Script()
    s.play("10:00:00", "10:01:00", [result(2, "main", 2000, -2000), result(2, "side", 500, 2500)], dealer=1)
    s.play("10:02:00", "10:03:00", [result(2, "main", 1000, 1000)], dealer=1)
    s.play("10:04:00", "10:05:00", [result(2, "main", 3000, 3000)])             # the house banks this one
    fee = replace(BUSTER, bank_fee=100)
    book = fed(s, rating(1, 2, "09:00:00", edges=fee), rating(2, 1, "09:00:00", edges=fee))
    bank = book.figures(2, NOW)
    assert (bank.hands, bank.banked, bank.bank) == (0, 2, 2000 - 1000 - 2 * 100)
    assert bank.theo.value == 200 and bank.theo.fees == 200 and bank.theo.interval is None
    assert bank.to_json()["theo"]["bank_fees"] == 200
    player = book.figures(1, NOW)                                  # the player pays no fee
    assert player.theo.fees == 0 and player.bank == 0
    side = BUSTER.spots["side"].house_edge
    assert player.theo.value == pytest.approx(500 * side + 3000 * BBX_MAIN.house_edge)


def test_in_a_rake_game_theo_is_the_seat_s_share_of_the_rake() -> None:
    s = Script()
    s.play("10:00:00", "10:01:00", [result(1, "bet", 3000, 2500), result(2, "bet", 1000, -1000),
                                    result(3, "bet", 2000, -2000)], rakes=(300, 200))
    s.play("10:02:00", "10:03:00", [result(1, "bet", 100, -100), result(2, "bet", 100, 100)])  # no rake
    book = fed(s, *(rating(n, n, "09:00:00", edges=HOLDEM) for n in (1, 2, 3)))
    shares = [book.tallies[n].wagers.rake for n in (1, 2, 3)]
    assert shares == [Fraction(500 * 3000, 6000), Fraction(500 * 1000, 6000), Fraction(500 * 2000, 6000)]
    assert [book.figures(n, NOW).theo.value for n in (1, 2, 3)] == pytest.approx([250, 500 / 6, 500 / 3])
    assert book.figures(1, NOW).theo.rake and sum(shares) == 500


def test_ratings_close_when_the_seat_is_rated_again_or_the_table_closes() -> None:
    s = Script()
    book = TableRatings("T07")
    first = rating(1, 3, "10:00:00")
    assert book.open(first) is None
    replaced = book.open(rating(2, 3, "10:10:00", player="P-2"))
    assert replaced is not None and (replaced.id, replaced.reason, replaced.closed) == (
        1, REPLACED, s.ts("10:10:00"))
    book.open(rating(3, 4, "10:11:00"))
    later = rating(4, 5, "10:30:00")
    book.add(later)
    closed = book.feed(followed(s.add("10:20:00", "table.closed", None, {"supervisor": "S101"})))
    assert [(r.id, r.reason, r.closed_by, r.closed) for r in closed] == [
        (2, TABLE_CLOSED, "S101", s.ts("10:20:00")), (3, TABLE_CLOSED, "S101", s.ts("10:20:00"))]
    assert [r.is_open for r in book.ratings()] == [False, False, False, True]   # opened after: open
    with pytest.raises(RatingError, match="rating 2 was closed already"):
        book.close(2, s.ts("10:25:00"), "bob")
    assert book.close(4, s.ts("10:40:00"), "bob").reason == PIT
    book.forget_closed()
    assert book.ratings() == []


def test_unreadable_events_are_left_out_and_said() -> None:
    s = Script()
    s.add("10:00:00", "hand.settled", 1, {"results": [{"seat": "one", "spot": "main", "hand_index": 0,
                                                       "outcome": "win", "wager": 5, "payout": 5}]})
    s.add("10:00:01", "progressive.paid", None, {"seat": 1})
    s.play("10:01:00", "10:01:30", [result(1, "main", 1000, 1000)])
    book = fed(s, rating(1, 1, "09:00:00"))
    assert book.figures(1, NOW).hands == 1
    assert len(book.problems) == 2 and "WagerResult.seat must be int, found 'one'" in book.problems[0]
    assert "progressive.paid" in book.problems[1] and "amount" in book.problems[1]


def test_a_player_id_is_checked() -> None:
    assert player_id(" 4417 0012 \n") == "4417 0012"
    for bad in ("", "   ", "x" * 65, "P\x07"):
        with pytest.raises(RatingError):
            player_id(bad)


def test_events_read_already_are_skipped_so_a_live_feed_may_follow_the_stored_one() -> None:
    s = Script()
    s.play("10:00:00", "10:00:30", [result(3, "main", 1000, 1000)])
    s.play("10:01:00", "10:01:30", [result(3, "main", 2000, -2000)])
    book = TableRatings("T07")
    book.add(rating(1, 3, "09:00:00"))
    for message in s.messages[:7]:                  # the store holds the first hand and a little more
        book.feed(followed(message), "1")
    for message in s.messages[3:]:                  # the follower repeats a few
        book.feed(followed(message), "1")
    assert (book.figures(1, NOW).hands, book.figures(1, NOW).actual) == (2, -1000)
    book.feed(followed({**s.messages[-2], "seq": 1}), "2")     # a new epoch: its events are new
    assert book.figures(1, NOW).hands == 3


def test_a_player_rated_at_two_seats_at_once_plays_that_time_once() -> None:
    ratings = [rating(1, 1, "10:00:00", "10:30:00"), rating(2, 2, "10:15:00", "10:45:00"),
               rating(3, 3, "11:00:00"), rating(4, 4, "11:10:00", "11:20:00")]
    assert time_played(ratings, NOW) == 45 * 60 + 60 * 60
    assert time_played([], NOW) == 0
