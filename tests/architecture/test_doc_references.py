"""The words that point somewhere point at something that is there (issue 36): every ``:mod:``,
``:func:``, ``:class:``, ``:meth:``, ``:data:``, ``:attr:`` and ``:exc:`` reference in the docstrings
of the shipped code names a module or an object that exists, resolved as Sphinx would resolve it
(:mod:`tests.architecture.docstring_roles`); and every file README.md and docs/ name in inline code
or a relative link is in the repository, every anchor of a link to a doc one of its headings
(:mod:`tests.architecture.doc_paths`). Each check is shown finding made-up references."""

from __future__ import annotations

from pathlib import Path

from tests.architecture import doc_paths, docstring_roles
from tests.architecture.docstring_roles import Reference, module_name, problem, references, target_of

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("controller", "drivers", "firmware_bridge")


def shipped() -> list[Path]:
    """The Python files of the shipped packages."""
    return sorted(path for package in SHIPPED for path in (ROOT / package).rglob("*.py")
                  if "__pycache__" not in path.parts)


def test_every_docstring_reference_of_the_shipped_code_names_something() -> None:
    problems, checked = [], 0
    for path in shipped():
        module = module_name(path, ROOT)
        for reference in references(path.relative_to(ROOT), path.read_text()):
            checked += 1
            found = problem(reference, module)
            if found is not None:
                problems.append(found)
    assert checked > 1000, f"only {checked} references found: is the reader still reading them?"
    assert problems == [], "\n".join(problems)


def test_every_file_the_docs_name_is_in_the_repository() -> None:
    problems, checked = [], 0
    for doc in doc_paths.docs():
        for item in doc_paths.named(doc, doc.read_text()):
            checked += 1
            found = doc_paths.problem(item)
            if found is not None:
                problems.append(found)
    assert checked > 500, f"only {checked} paths and links found: is the reader still reading them?"
    assert problems == [], "\n".join(problems)


def test_references_are_read_from_every_kind_of_docstring() -> None:
    source = '''"""A module that names :mod:`controller.table.decide`."""

LIMIT = 3
"""An attribute's docstring naming :data:`~controller.table.machine.TRANSITIONS`."""


class Made:
    """Naming :meth:`up`."""

    def up(self) -> None:
        """And :func:`the step <controller.table.cards.on_card>`,
        over two lines: :exc:`ValueError`."""
'''
    found = references(Path("made_up.py"), source)
    assert [(ref.line, ref.role, ref.target, ref.scope) for ref in found] == [
        (1, "mod", "controller.table.decide", ()),
        (4, "data", "~controller.table.machine.TRANSITIONS", ()),
        (8, "meth", "up", ("Made",)),
        (11, "func", "the step <controller.table.cards.on_card>", ("Made",)),
        (12, "exc", "ValueError", ("Made",)),
    ]


def test_a_target_is_read_as_sphinx_reads_it() -> None:
    assert target_of("~controller.table.writer.Writer.write()") == "controller.table.writer.Writer.write"
    titled = "Hand.view <controller.games.interface.Hand.view>"
    assert target_of(titled) == "controller.games.interface.Hand.view"
    assert target_of("!Step") == "Step"


def made_up(target: str, role: str = "func", scope: tuple[str, ...] = ()) -> Reference:
    """A reference in a docstring of controller/table/writer.py that nobody wrote."""
    return Reference(Path("controller/table/writer.py"), 1, role, target, scope)


def test_a_reference_to_nothing_is_found() -> None:
    writer = "controller.table.writer"
    stale = [
        made_up("controller.table.decide", "mod"),                   # a module that is gone
        made_up("controller.table.machine.Table.decide", "meth"),    # a method that is not there
        made_up("controller.table.machine.Table", "mod"),            # a class named as a module
        made_up("decide"),                                           # not in the module's namespace
        made_up("write", "meth"),                                    # a method, outside its class
        made_up("Writer.nothing", "attr"),                           # no such attribute
        made_up(".nothing", "mod"),                                  # no such module near it
        made_up("not a name"),
    ]
    for reference in stale:
        assert problem(reference, writer) is not None, f"{reference} was taken for a real reference"
    real = [
        made_up("controller.table.cards", "mod"),
        made_up("~controller.table.machine.Table.press", "meth"),
        made_up("Writer"),                                            # the module defines it
        made_up("TableState", "class"),                               # the module imports it
        made_up("write", "meth", ("Writer",)),                        # within its class
        made_up("Step.events", "attr"),                               # a dataclass's field
        made_up(".machine", "mod"),                                   # beside it in its package
        made_up("ValueError", "exc"),
        made_up("json.dumps"),
    ]
    for reference in real:
        assert problem(reference, writer) is None, problem(reference, writer)


def test_an_attribute_set_on_self_is_declared() -> None:
    class Counted:
        def __init__(self) -> None:
            self.seen = 0

    assert "seen" in docstring_roles.attribute_names(Counted)
    assert "unseen" not in docstring_roles.attribute_names(Counted)


def test_a_path_or_a_link_to_nothing_is_found() -> None:
    doc = ROOT / "docs" / "made-up.md"
    text = """# Made up

The ledger (`controller/table/ledger.py`), the model (`tests/model/`), the monitor's floor page
(`pages/floor.py`) and the examples (`deploy/*.toml`), run as `.venv/bin/python bench/link_bench.py`;
the reader's air time ([boards.md](boards.md#air-time)), the picture ![floor](pit-monitor.png).
Not paths: `tcp://10.1.0.7:5556`, `/api/floor`, `T07/card.dealt`, `A/B/C-D`.

Stale: `controller/table/nothing.py`, `bench/x.py`, `pages/nothing.py`, `deploy/*.nothing`,
[a heading](boards.md#no-such-heading), [a doc](nowhere.md).

```
controller/table/in_a_fence.py
```
"""
    found = {item.path: doc_paths.problem(item) for item in doc_paths.named(doc, text)}
    assert {path for path, why in found.items() if why is None} == {
        "controller/table/ledger.py", "tests/model/", "pages/floor.py", "deploy/*.toml", ".venv/bin/python",
        "bench/link_bench.py", "boards.md#air-time", "pit-monitor.png", "T07/card.dealt", "A/B/C-D"}
    assert {path for path, why in found.items() if why is not None} == {
        "controller/table/nothing.py", "bench/x.py", "pages/nothing.py", "deploy/*.nothing",
        "boards.md#no-such-heading", "nowhere.md"}


def test_a_heading_is_anchored_as_github_anchors_it() -> None:
    assert doc_paths.anchor("The table's books") == "the-tables-books"
    assert doc_paths.anchor("How long a client waits: `reply_within`") == \
        "how-long-a-client-waits-reply_within"
    assert doc_paths.anchor("### `[antennas]` (required)".lstrip("# ")) == "antennas-required"
