"""The supervisor gate: id and PIN against the configured hashes, wrong answers counted per id and per
client, so that no one's right PIN clears another's wrong ones and no one can lock the table."""

from __future__ import annotations

from controller.security.supervisor_gate import (
    CLIENT_FAILURES,
    LOCKOUT,
    MAX_FAILURES,
    TABLE_FAILURES,
    TABLE_PACE,
    SupervisorGate,
)
from controller.security.supervisor_pins import hash_pin, verify_pin

STORED = hash_pin("2468", salt=bytes(range(16)))
OTHER = hash_pin("1357", salt=bytes(range(1, 17)))
WRONG = "wrong supervisor id or PIN"


def answer(gate: SupervisorGate, supervisor: str, pin: str, now: float,
           client: str | None = None) -> str | None:
    refused = gate.before(supervisor, pin, now, client)
    if refused is not None:
        return refused
    return gate.after(supervisor, verify_pin(gate.stored(supervisor), pin), now, client)


def test_the_right_pin_passes_and_a_wrong_one_or_an_unknown_id_does_not() -> None:
    gate = SupervisorGate({"S7": STORED})
    assert answer(gate, "S7", "2468", 0.0) is None
    assert answer(gate, "S7", "1357", 1.0) == WRONG
    assert answer(gate, "S8", "2468", 2.0) == WRONG
    assert gate.stored("S8") == gate.stored("S9") != STORED            # one decoy hash, never a match
    assert gate.before("S7", None, 3.0) == gate.before("", "2468", 3.0) == \
        "a supervisor's command needs the supervisor's id and PIN"


def test_wrong_answers_lock_that_id_for_a_while() -> None:
    gate = SupervisorGate({"S7": STORED})
    for n in range(MAX_FAILURES):
        assert answer(gate, "S7", "0000", float(n)) == WRONG
    last = float(MAX_FAILURES - 1)
    refused = answer(gate, "S7", "2468", last + 1)
    assert refused == f"too many wrong supervisor PINs for 'S7': refused for {LOCKOUT - 1:.0f} s"
    assert gate.locked_for("S7", last + 1) == LOCKOUT - 1
    assert answer(gate, "S7", "2468", last + LOCKOUT) is None        # the lock has run out
    assert gate.locked_for("S7", last + LOCKOUT) == 0


def test_a_right_answer_forgets_only_that_ids_wrong_ones() -> None:
    gate = SupervisorGate({"S7": STORED, "S8": OTHER})
    for n in range(MAX_FAILURES - 1):
        answer(gate, "S7", "0000", float(n))
    assert answer(gate, "S7", "2468", 5.0) is None
    assert answer(gate, "S7", "0000", 6.0) == WRONG
    assert gate.locked_for("S7", 6.0) == 0


def test_another_supervisors_right_pin_never_clears_an_ids_wrong_ones() -> None:
    """The bypass of issue 18: two wrong PINs for S7, then S8's right one, over and over."""
    gate = SupervisorGate({"S7": STORED, "S8": OTHER})
    now = 0.0
    for _ in range(MAX_FAILURES):
        for _ in range(2):
            answer(gate, "S7", "0000", now)
            now += 0.1
        assert answer(gate, "S8", "1357", now) is None
        now += 0.1
    assert gate.locked_for("S7", now) > 0
    refused = answer(gate, "S7", "2468", now)
    assert refused is not None and refused.startswith("too many wrong supervisor PINs for 'S7'")


def test_wrong_pins_for_one_id_lock_neither_the_table_nor_the_other_supervisors() -> None:
    gate = SupervisorGate({"S7": STORED, "S8": OTHER})
    for n in range(MAX_FAILURES * 3):
        answer(gate, "S999", "0000", float(n))                      # an unknown id, over and over
    assert gate.locked_for("S999", 9.0) > 0
    assert answer(gate, "S8", "1357", 9.0) is None
    assert answer(gate, "S7", "2468", 9.5) is None


def test_a_client_that_fails_is_locked_and_the_real_supervisor_elsewhere_is_not() -> None:
    gate = SupervisorGate({"S7": STORED, "S8": OTHER})
    hostile, pit = "hostile-key@10.0.0.9", "pit-key@10.0.0.2"
    for n in range(MAX_FAILURES):
        assert answer(gate, "S7", "0000", float(n), hostile) == WRONG
    assert answer(gate, "S7", "2468", 3.0, hostile) is not None      # S7 is locked for that client
    assert answer(gate, "S7", "2468", 3.0, pit) is None              # not for the pit's
    ids = [f"S{n}" for n in range(100, 100 + CLIENT_FAILURES)]
    now = 4.0
    for supervisor in ids:                                           # spread over many ids
        answer(gate, supervisor, "0000", now, hostile)
        now += 1.0
    refused = answer(gate, "S8", "1357", now, hostile)               # even the right PIN
    assert refused is not None and refused.startswith("too many wrong supervisor PINs from this client")
    assert answer(gate, "S8", "1357", now, pit) is None
    assert answer(gate, "S7", "2468", now + 0.5, pit) is None


def test_past_the_table_wide_limit_pins_are_checked_at_a_pace_and_never_locked_out() -> None:
    gate = SupervisorGate({"S7": STORED})
    now = 0.0
    for n in range(TABLE_FAILURES):                                  # each id failing once, no lock
        assert answer(gate, f"X{n}", "0000", now) == WRONG
        now += 0.01
    assert answer(gate, "S7", "2468", now) is None                   # the first check goes on
    refused = answer(gate, "S7", "2468", now + 0.1)
    assert refused == f"many wrong supervisor PINs at this table: one is checked every " \
                      f"{TABLE_PACE:.0f} s; try again in {TABLE_PACE:.0f} s"
    assert answer(gate, "S7", "2468", now + TABLE_PACE) is None      # never out for longer
    assert answer(gate, "S7", "2468", now + LOCKOUT + 1) is None
    assert answer(gate, "S7", "2468", now + LOCKOUT + 1.1) is None   # the pace is over with the window


def test_old_failures_are_forgotten() -> None:
    gate = SupervisorGate({"S7": STORED})
    for n in range(40):
        answer(gate, f"X{n}", "0000", float(n) * LOCKOUT)
    assert gate.remembered() <= 2
