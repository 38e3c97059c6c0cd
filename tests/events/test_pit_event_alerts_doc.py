"""docs/pit-events.md's alerts and the alert registry (controller/events/alerts.py) agree both ways: the
table "Every alert at a glance" lists each registered code with its severities, how it clears and whether
it carries the next hand's number; every code the section's other tables describe is registered, and every
registered code is described there with each severity it is raised with. The dealer screen has a way to
see the condition of each alert that clears by itself."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from controller.events import alerts
from controller.screen.advice import CONDITIONS

DOC = Path(__file__).parents[2] / "docs" / "pit-events.md"


def section() -> str:
    """The text of section 3's "Alerts", up to the next section."""
    text = DOC.read_text()
    start = text.index("### Alerts\n")
    return text[start:text.index("\n### ", start + 1)]


def rows(text: str) -> list[list[str]]:
    """Every table row of ``text`` whose first cell is a backticked code, as its cells."""
    found = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and re.fullmatch(r"`[a-z_]+`", cells[0]):
            found.append([cells[0].strip("`"), *cells[1:]])
    return found


def glance() -> dict[str, tuple[tuple[str, ...], str, bool]]:
    """The table "Every alert at a glance": code -> (severities, clears, next hand)."""
    text = section()
    table = text[text.index("| code | severity | clears | next hand |"):].split("\n\n", 1)[0]
    listed: dict[str, tuple[tuple[str, ...], str, bool]] = {}
    for code, severity, clears, next_hand in rows(table):
        assert code not in listed, f"{code} is in the table twice"
        assert next_hand in ("yes", "no"), f"{code}: next hand {next_hand!r}"
        listed[code] = (tuple(s.strip() for s in severity.split(",")), clears, next_hand == "yes")
    return listed


def test_the_table_at_a_glance_is_the_registry() -> None:
    registered = {code: (kind.severities, kind.clears, kind.next_hand)
                  for code, kind in alerts.registered().items()}
    listed = glance()
    assert sorted(set(registered) - set(listed)) == [], "registered but not in the table at a glance"
    assert sorted(set(listed) - set(registered)) == [], "in the table at a glance but registered by nobody"
    for code, entry in sorted(registered.items()):
        assert listed[code] == entry, f"{code}: the doc says {listed[code]}, the registry {entry}"


def test_every_alert_the_section_describes_is_registered_and_every_registered_one_is_described() -> None:
    described: dict[str, list[str]] = {}
    for code, *cells in rows(section()):
        described.setdefault(code, []).append(" ".join(cells))
    assert sorted(set(described) - set(alerts.registered())) == [], "described but registered by nobody"
    for code, kind in sorted(alerts.registered().items()):
        words = " ".join(described.get(code, []))
        for severity in kind.severities:
            assert severity in words, f"{code}: the doc does not say it is raised as {severity}"


def test_the_screen_sees_the_condition_of_each_alert_that_clears_by_itself() -> None:
    by_itself = {code for code, kind in alerts.registered().items() if kind.clears == "condition"}
    assert set(CONDITIONS) == by_itself


def test_every_registered_todo_has_words_even_for_an_alert_with_no_fields() -> None:
    for code, kind in alerts.registered().items():
        if kind.todo is not None:
            assert kind.todo({"code": code}).endswith("."), code


def test_every_alert_is_raised_through_the_registry() -> None:
    """No module builds an ``Alerted`` itself (an unregistered code would pass unseen): only
    :func:`controller.events.alerts.alert` does, and the codec when it reads one back."""
    root = Path(__file__).parents[2] / "controller"
    allowed = {root / "events" / "alerts.py", root / "events" / "hand.py"}
    builders = []
    for path in sorted(root.rglob("*.py")):
        if path in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            called = getattr(node.func, "id", getattr(node.func, "attr", None)) \
                if isinstance(node, ast.Call) else None
            if called == "Alerted":
                builders.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    assert builders == []
