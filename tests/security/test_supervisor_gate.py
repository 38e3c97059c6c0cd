"""The supervisor gate: id and PIN against the configured hashes, wrong answers rate-limited."""

from __future__ import annotations

from controller.security.supervisor_gate import LOCKOUT, MAX_FAILURES, SupervisorGate
from controller.security.supervisor_pins import hash_pin, verify_pin

STORED = hash_pin("2468", salt=bytes(range(16)))


def answer(gate: SupervisorGate, supervisor: str, pin: str, now: float) -> str | None:
    refused = gate.before(supervisor, pin, now)
    if refused is not None:
        return refused
    return gate.after(verify_pin(gate.stored(supervisor), pin), now)


def test_the_right_pin_passes_and_a_wrong_one_or_an_unknown_id_does_not() -> None:
    gate = SupervisorGate({"S7": STORED})
    assert answer(gate, "S7", "2468", 0.0) is None
    assert answer(gate, "S7", "1357", 1.0) == "wrong supervisor id or PIN"
    assert answer(gate, "S8", "2468", 2.0) == "wrong supervisor id or PIN"
    assert gate.stored("S8") == gate.stored("S9") != STORED            # one decoy hash, never a match
    assert gate.before("S7", None, 3.0) == gate.before("", "2468", 3.0) == \
        "a supervisor's command needs the supervisor's id and PIN"


def test_wrong_answers_lock_every_supervisor_command_for_a_while() -> None:
    gate = SupervisorGate({"S7": STORED})
    for n in range(MAX_FAILURES):
        assert answer(gate, "S7", "0000", float(n)) == "wrong supervisor id or PIN"
    last = float(MAX_FAILURES - 1)
    refused = answer(gate, "S7", "2468", last + 1)
    assert refused is not None and refused.startswith("too many wrong supervisor PINs")
    assert gate.locked_for(last + 1) == LOCKOUT - 1
    assert answer(gate, "S7", "2468", last + LOCKOUT) is None        # the lock has run out
    assert gate.locked_for(last + LOCKOUT) == 0


def test_a_right_answer_forgets_the_wrong_ones_before_it() -> None:
    gate = SupervisorGate({"S7": STORED})
    for n in range(MAX_FAILURES - 1):
        answer(gate, "S7", "0000", float(n))
    assert answer(gate, "S7", "2468", 5.0) is None
    assert answer(gate, "S7", "0000", 6.0) == "wrong supervisor id or PIN"
    assert gate.locked_for(6.0) == 0
