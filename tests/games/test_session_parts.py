"""The session as parts: each part takes its own events, a game's own part needs nothing of the table,
and a checkpoint's session (of parts, or flat from before parts) reads back."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Self

import pytest

from controller.events.codec import decode, encode
from controller.events.registry import Event, event, unregister
from controller.games.interface import (
    Button,
    ButtonMoved,
    MeterChanged,
    Progressive,
    Session,
    StackChanged,
    Stacks,
    Tournament,
)
from controller.games.session.part import SessionPart, session_part


def test_each_part_takes_its_own_events_and_a_missing_part_reads_as_its_default() -> None:
    session = Session().apply(StackChanged(2, 900, "buy_in")).apply(ButtonMoved(2))
    session = session.apply(StackChanged(5, 400, "buy_in")).apply(MeterChanged("blazing_7s", 5))
    assert session[Stacks].stacks == {2: 900, 5: 400}
    assert session[Button] == Button(2, (5,))              # seat 5 bought in under way: it waits
    assert session[Progressive].meters == {"blazing_7s": 5}
    assert session[Tournament] == Tournament() and Tournament not in session.parts
    assert Session.from_json(session.to_json()) == session


def test_a_game_with_a_new_fact_adds_its_event_and_part_and_nothing_else() -> None:
    @event("example.lucky")
    @dataclass(frozen=True)
    class LuckyNumber(Event):
        """A game's own fact, declared beside the game: no change to the table or the interface."""

        seat: int
        number: int

    @session_part("example_lucky")
    @dataclass(frozen=True)
    class Lucky(SessionPart):
        events = (LuckyNumber,)

        numbers: tuple[int, ...] = ()

        def apply(self, event: Event) -> Self:
            assert isinstance(event, LuckyNumber)
            return replace(self, numbers=(*self.numbers, event.number))

    try:
        kind, data, private = encode(LuckyNumber(3, 7))
        assert (kind, data, private) == ("example.lucky", {"seat": 3, "number": 7}, {})
        record = decode(kind, data, private)
        assert record is not None
        session = Session().apply(record)
        assert session[Lucky].numbers == (7,)
        assert Session.from_json(session.to_json())[Lucky].numbers == (7,)
    finally:
        unregister("example.lucky")


def test_a_checkpoint_with_a_part_nobody_registers_is_refused() -> None:
    with pytest.raises(ValueError, match="no game registers"):
        Session.from_json({"no_such_part": {}})


def test_a_flat_checkpoint_session_from_before_parts_reads_into_parts() -> None:
    flat = {"stacks": [[1, 500], [4, 900]], "button": 4, "level": 2, "blinds": [200, 400],
            "level_ends_at": "2027-03-01T20:40:00.000Z", "places": [[3, 5]], "winner": None,
            "meters": {"blazing_7s": 100_000}, "unpaid": [[1, 0, "three suited 7s", 100_005]],
            "hits": [[4, 50_000, "S3"]], "waiting": [1]}
    session = Session.from_json(flat)
    assert session[Stacks].stacks == {1: 500, 4: 900} and session[Button] == Button(4, (1,))
    assert session[Tournament] == Tournament(2, (200, 400), "2027-03-01T20:40:00.000Z", {3: 5}, None)
    progressive = session[Progressive]
    assert progressive.unpaid[0].amount == 100_005 and progressive.hits[0].supervisor == "S3"
