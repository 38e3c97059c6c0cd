"""The one writer of the table's steps: numbering, journal, apply, publish, in that order.

A step is the events one input causes, as a frozen record (:class:`Step`). The deciding
functions, one module for each kind of input (:mod:`controller.table.cards`,
:mod:`~controller.table.chips`, :mod:`~controller.table.buttons`, :mod:`~controller.table.devices`,
:mod:`~controller.table.commands`; :mod:`controller.table.machine` hands each input to its own),
yield steps; :meth:`Writer.write` encodes each event
by the one codec (:mod:`controller.events.codec`), numbers it, journals the step with one fsync,
applies it to :class:`TableState`, and only then publishes it: durable before visible. The path
goes one way; nothing is read back.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field

from controller.commands.request_ids import PRIVATE_KEY as REQUEST_KEY
from controller.events import alerts as alert_registry
from controller.events.alerts import Severity
from controller.events.codec import encode
from controller.events.envelope import encode_event
from controller.events.registry import Event
from controller.games.interface import Hand
from controller.journal.lines import Record
from controller.table.state import TableState
from firmware_bridge.kernel.json import JsonObject, JsonValue

Clock = Callable[[], str]
"""Returns the timestamp of an event being emitted (pit format, UTC with milliseconds)."""


@dataclass(frozen=True)
class Step:
    """The events of one journal step. ``call`` is the game call (``start``, ``deal``, ``act``)
    that caused it, journaled in the private part of event ``at``; ``result`` is the hand that
    call returned (applied as is, not called again)."""

    events: Sequence[Event]
    call: Mapping[str, str | int] | None = None
    at: int = 0
    result: Hand | None = field(default=None, compare=False)


def alert(code: str, message: str, *, severity: Severity | None = None, seat: int | None = None,
          hidden: Mapping[str, JsonValue] | None = None, **about: JsonValue) -> Step:
    """One ``alert`` step: the registered alert ``code`` (:func:`controller.events.alerts.alert`:
    its ``severity``, ``seat``, ``hidden`` part and what else it concerns)."""
    return Step([alert_registry.alert(code, message, severity=severity, seat=seat, hidden=hidden, **about)])


class Writer:
    """Writes each step: ``write`` journals its records durably (it returns only after fsync);
    ``publish`` sends ``(topic, body)`` to the pit."""

    def __init__(self, table_id: str, state: Callable[[], TableState], *, clock: Clock,
                 write: Callable[[Sequence[Record]], None],
                 publish: Callable[[bytes, bytes], None] | None, epoch: int | None) -> None:
        self.table_id = table_id
        self._state = state
        self.clock = clock
        self._write = write
        self.publish = publish
        self.epoch = epoch
        """The epoch every event is published in (see :mod:`controller.journal.high_water`)."""
        self.request_mark: dict[str, str] | None = None
        """The request id of the command being run (:mod:`controller.commands.request_ids`): journaled
        with the first step it makes, then :attr:`marked` says at which seq."""
        self.marked: tuple[dict[str, str], int] | None = None

    def write(self, step: Step) -> None:
        """Encode, number, journal (one fsync), apply and publish the events of ``step``."""
        state = self._state()
        events, call = step.events, step.call
        records: list[Record] = []
        bodies: list[JsonObject] = []
        seq = state.seq
        stamp = self.clock()
        started: int | None = None
        last = len(events) - 1
        for position, event in enumerate(events):
            kind, data, private = encode(event)
            seq += 1
            if kind == "hand.started":
                started = state.hand_no + 1
            number = started if started is not None else hand_for(state, kind, data)
            topic, body = encode_event(self.table_id, seq, stamp, kind, number, data, epoch=self.epoch)
            if call is not None and position == step.at:
                private = {**private, "input": dict(call)}
            if position == 0 and self.request_mark is not None:
                mark: JsonObject = {key: value for key, value in self.request_mark.items()}
                private = {**private, REQUEST_KEY: mark}
                self.marked, self.request_mark = (self.request_mark, seq), None
            if position < last:
                private = {**private, "more": True}
            records.append(Record(seq=seq, topic=topic.decode(), body=body, private=private))
            bodies.append({"seq": seq, "type": kind, "hand": number, "data": data})
        self._write(records)
        for record, decoded, event in zip(records, bodies, events, strict=True):
            state.apply(record, step.result if "input" in record.private else None, decoded, event)
        if self.publish is not None:
            for record in records:
                self.publish(record.topic.encode(), record.body)


def hand_for(state: TableState, kind: str, data: Mapping[str, JsonValue]) -> int | None:
    """The hand number an event of ``kind`` is published with (None: no hand's)."""
    if kind.startswith(("device.", "shoe.", "table.")):
        return None
    if state.in_hand:
        return state.hand_no
    registration = alert_registry.kind(data.get("code")) if kind == "alert" else None
    if kind == "bet.placed" or (registration is not None and registration.next_hand):
        return state.hand_no + 1
    return None


Decided = Generator[Step, None, "str | None"]
"""What a deciding function gives: the steps an input causes, each written (and applied) before
the function goes on, then None if the input was taken, else the refusal in words."""
