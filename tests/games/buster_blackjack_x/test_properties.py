"""Properties of any hand of Buster Blackjack X played with any legal decisions and any cards."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games.buster_blackjack_x.bank import BANKED_SPOTS
from controller.games.buster_blackjack_x.hand import BusterHand
from controller.games.interface import Progressive, Session, Settled, Stacks
from firmware_bridge.kernel.cards import Card
from tests.games.buster_blackjack_x.helpers import game

CARDS = st.builds(Card, st.integers(1, 13), st.integers(0, 3))
SEVENS = st.builds(Card, st.just(7), st.integers(0, 3))
OPTIONS = st.fixed_dictionaries({
    "banker": st.sampled_from(["house", "rotate", "fixed"]),
    "insurance": st.booleans(),
    "hit_button": st.booleans(),
    "dealer_draws_past_21": st.booleans(),
    "dealer_28_to_30": st.sampled_from(["wins", "pushes", "loses"]),
    "hard_31": st.sampled_from(["three_or_more_cards", "no_ace_high"]),
    "aces": st.sampled_from(["1_or_21", "1_11_or_21"]),
    "collection_fee": st.sampled_from([0, 100]),
})
WAGERS = st.dictionaries(
    st.integers(1, 6),
    st.fixed_dictionaries({"main": st.sampled_from([500, 1001, 5000])},
                          optional={"side": st.sampled_from([500]), "progressive": st.just(100)}),
    min_size=1, max_size=4)


def replay(start: BusterHand, calls: list[tuple[Any, ...]]) -> BusterHand:
    hand = start
    for call in calls:
        hand = hand.deal(call[1], call[2])[0] if call[0] == "deal" else hand.act(call[1], call[2])[0]
    return hand


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, bets=WAGERS, data=st.data(), bank=st.sampled_from([500, 20_000, 1_000_000]))
def test_any_legal_play_settles_every_wager_once_and_the_bank_adds_up(
        options: dict[str, Any], bets: dict[int, dict[str, int]], data: st.DataObject, bank: int) -> None:
    table = game(**options, banker_seat=6, min_bank=500)
    bets = {seat: spots for seat, spots in bets.items() if seat != 6}
    if not bets:
        return
    session = Session.of(Stacks({6: bank}), Progressive(meters={"blazing_7s": 150_000}))
    assert table.bet_problems(bets, session) == []
    start, _ = table.start(bets, session)
    hand, calls, index = start, [], 0
    cards = st.one_of(SEVENS, CARDS)
    while hand.decision() is not None:
        assert len(calls) < 200
        decision = hand.decision()
        assert decision is not None
        assert (decision.card is None) == (not hand.can_deal())
        view = hand.view()
        assert view.dealer is not None
        if len(hand.dealer) > 1 and not hand.hole_revealed:
            assert view.dealer.cards[1] is None
        assert hand.committed()[(hand.seats[0].seat, "main")] == hand.seats[0].main_total()
        names = sorted(decision.actions)
        if names and (decision.card is None or data.draw(st.booleans())):
            name = data.draw(st.sampled_from(names))
            option = decision.actions[name]
            amount = None if option.low is None else data.draw(
                st.integers(option.low, option.high or option.low))
            assert hand.can(name, amount), (name, amount)
            calls.append(("act", name, amount))
            hand = hand.act(name, amount)[0]
        else:
            index += 1
            card = data.draw(cards)
            calls.append(("deal", card, index))
            hand, events = hand.deal(card, index)
            assert not any(isinstance(e, Settled) for e in events[:-1])
    assert replay(start, calls) == hand                         # deterministic: the journal's replay
    results = hand.results()
    assert results is not None
    for play in hand.seats:
        mains = [r for r in results if r.seat == play.seat and r.spot == "main"]
        assert [(r.hand_index, r.wager) for r in mains] == [(n, h.wager) for n, h in enumerate(play.hands)]
        for result in results:
            assert result.outcome != "lose" or result.payout == -result.wager
            assert result.payout >= -result.wager
    if hand.banker is not None:
        banked = sum(r.payout for r in results if r.spot in BANKED_SPOTS)
        assert hand.settled.bank_after == bank - table.rules.collection_fee - banked
        assert hand.settled.bank_after is not None and hand.settled.bank_after >= 0
    assert hand.meter >= table.rules.progressive_base
