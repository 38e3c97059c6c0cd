"""The typing budget of issue 24 (item 6, "typed all the way"), read from the shipped code's syntax.

``Any`` only at the JSON edge: at most :data:`BUDGET` lines of shipped code
(controller/, drivers/, firmware_bridge/; no test) name ``Any``, and no public function,
method, class field or type alias of the packages in :data:`NO_ANY_IN_SIGNATURES` has it
in its annotations. Both are read from the syntax tree (:mod:`ast`), so a docstring or a
comment that says "any" counts for nothing, and an annotation written as a string counts
as the annotation it is. The checks are run on small sources first, so that each can fail.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("controller", "drivers", "firmware_bridge")
"""The shipped packages, whose lines naming ``Any`` are counted."""

BUDGET = 20
"""The most lines of shipped code that may name ``Any``: the limit issue 24 set was 100; the code got
down to 8 (the journal's private part, two SQL and report edges, the MicroPython board core run on
the host), and the budget is held near that so that ``Any`` does not creep back."""

NO_ANY_IN_SIGNATURES = ("controller/commands", "controller/games", "controller/table", "controller/events")
"""The packages whose public signatures may not name ``Any``."""



def shipped_files(folder: str) -> list[Path]:
    """Every Python file under ``folder`` (relative to the repository), tests left out."""
    return sorted(path for path in (ROOT / folder).rglob("*.py")
                  if "tests" not in path.relative_to(ROOT).parts)


def _annotation(node: ast.expr) -> ast.expr:
    """An annotation as an expression: one written as a string parsed (its lines kept)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            parsed = ast.parse(node.value.strip(), mode="eval").body
        except SyntaxError:
            return node
        return ast.increment_lineno(parsed, node.lineno - 1)
    return node


def _any_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """The places under ``node`` that name ``Any`` (``Any``, ``typing.Any``, an import of it), and
    those of the annotations written as strings."""
    for child in ast.walk(node):
        if _named(child) == "Any":
            yield child
        elif isinstance(child, ast.arg) and child.annotation is not None:
            yield from _string_any(child.annotation)
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) and child.returns is not None:
            yield from _string_any(child.returns)
        elif isinstance(child, ast.AnnAssign):
            yield from _string_any(child.annotation)
            if child.value is not None and _names_type_alias(child.annotation):
                yield from _string_any(child.value)


def _named(node: ast.AST) -> str | None:
    """The name a name, an attribute or an imported name stands for (None for other nodes)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.name if isinstance(node, ast.alias) else None


def _string_any(node: ast.expr) -> Iterator[ast.AST]:
    if isinstance(node, ast.Constant):
        parsed = _annotation(node)
        if parsed is not node:
            yield from _any_nodes(parsed)


def _names_type_alias(node: ast.expr) -> bool:
    return not isinstance(node, ast.alias) and _named(node) == "TypeAlias"


def any_lines(source: str) -> set[int]:
    """The numbers of the lines of ``source`` that name ``Any``."""
    return {getattr(node, "lineno", 0) for node in _any_nodes(ast.parse(source))}


def _public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def _mentions_any(node: ast.expr | None) -> bool:
    return node is not None and any(True for _ in _any_nodes(_annotation(node)))


def public_any(source: str) -> list[str]:
    """Each public function or method (its parameters and return), class field and type alias of
    ``source`` that has ``Any`` in its annotations, as ``name:line``."""
    found: list[str] = []

    def signature(function: ast.FunctionDef | ast.AsyncFunctionDef, owner: str) -> None:
        arguments = function.args
        params = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                  *(arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None)]
        if _mentions_any(function.returns) or any(_mentions_any(arg.annotation) for arg in params):
            found.append(f"{owner}{function.name}:{function.lineno}")

    def body(statements: list[ast.stmt], owner: str) -> None:
        for statement in statements:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                if _public(statement.name):
                    signature(statement, owner)
            elif isinstance(statement, ast.ClassDef):
                if _public(statement.name):
                    body(statement.body, f"{owner}{statement.name}.")
            elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                alias = _names_type_alias(statement.annotation)
                if _public(statement.target.id) and (
                        _mentions_any(statement.annotation) or (alias and _mentions_any(statement.value))):
                    found.append(f"{owner}{statement.target.id}:{statement.lineno}")
            elif isinstance(statement, ast.Assign) and not owner:
                names = [target.id for target in statement.targets if isinstance(target, ast.Name)]
                if any(_public(name) for name in names) and _mentions_any(statement.value):
                    found.append(f"{names[0]}:{statement.lineno}")

    body(ast.parse(source).body, "")
    return found


def _public_module(path: Path, package: Path) -> bool:
    parts = path.relative_to(package).parts
    return all(_public(part.removesuffix(".py")) for part in parts)


# -- the checks checked --------------------------------------------------------------------------

SAMPLE = '''\
"""Any docstring that says Any."""
import typing
from typing import (
    Any,
    Mapping,
)

Alias = Mapping[str, Any]
Clean: typing.TypeAlias = "int | dict[str, Clean]"
Hidden: typing.TypeAlias = "dict[str, Any]"


def shown(x: int, *rest: Any) -> int:  # Any here is a comment
    return x


def quoted(x: int) -> "typing.Any":
    return x


def _private(x: Any) -> Any:
    return x


def clean(x: int, **more: object) -> Mapping[str, int]:
    inside: Any = x
    return {"x": inside}


class Record:
    field: Any
    other: int

    def method(self, data: Mapping[str, Any]) -> None:
        pass

    def _helper(self, data: Any) -> None:
        pass


class _Private:
    def method(self, data: Any) -> None:
        pass
'''


def test_any_lines_counts_the_lines_that_name_any_and_no_docstring_or_comment() -> None:
    assert any_lines(SAMPLE) == {4, 8, 10, 13, 17, 21, 26, 31, 34, 37, 42}


def test_public_any_names_each_public_signature_field_and_alias_with_any() -> None:
    assert public_any(SAMPLE) == ["Alias:8", "Hidden:10", "shown:13", "quoted:17", "Record.field:31",
                                  "Record.method:34"]
    assert public_any("def f(x: int) -> dict[str, object]:\n    y: Any = x\n    return y\n") == []


# -- the shipped code ----------------------------------------------------------------------------


def test_shipped_code_names_any_on_at_most_the_budgeted_lines() -> None:
    counts = {str(path.relative_to(ROOT)): len(any_lines(path.read_text(encoding="utf-8")))
              for folder in SHIPPED for path in shipped_files(folder)}
    total = sum(counts.values())
    print(f"lines naming Any in shipped code: {total} (budget {BUDGET})")
    for folder in SHIPPED:
        print(f"  {folder}: {sum(n for name, n in counts.items() if name.startswith(folder + '/'))}")
    assert total <= BUDGET, f"{total} lines name Any, more than the budget of {BUDGET}"


@pytest.mark.parametrize("package", NO_ANY_IN_SIGNATURES)
def test_no_public_signature_names_any(package: str) -> None:
    folder = ROOT / package
    found = [f"{path.relative_to(ROOT)}:{where}" for path in shipped_files(package)
             if _public_module(path, folder) for where in public_any(path.read_text(encoding="utf-8"))]
    assert found == []
