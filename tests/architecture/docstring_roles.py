"""The cross-references in the docstrings of the shipped code (``:mod:``, ``:func:``, ``:class:``,
``:meth:``, ``:data:``, ``:attr:``, ``:exc:``), found with ast and resolved by importing, the way
Sphinx's Python domain would resolve them.

A docstring is a module's, a class's or a function's, or the string that follows an assignment in
a module or a class body (an attribute's docstring, as Sphinx reads them). A reference's target is
read as Sphinx reads it: ``~`` and ``!`` in front only change how it is shown, an explicit title
(``text <target>``) names its target, ``()`` after a function is left off. Then:

- a dotted name that starts with a top package (``controller``, ``drivers``, ``firmware_bridge``) is
  absolute: the longest module it starts with is imported, and the rest looked up on it;
- a name that starts with ``.`` is relative: looked up from the module's own package, then from each
  package above it;
- any other name is looked up in the class the docstring stands in (its own, then the classes
  around it), then in the module's namespace (what it defines and imports, the names imported for
  type checking only included, and the builtins), then, if dotted, as an absolute name (the
  standard library, a dependency, ``tests``).

A class's attribute exists if the class or a class it derives from has it, declares it (an
annotation, a dataclass field, ``__slots__``) or sets it on ``self`` in one of its methods. A
``:mod:`` must name a module.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import importlib
import inspect
import re
import sys
import textwrap
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

ROLE = re.compile(r":(mod|func|class|meth|data|attr|exc):`([^`]+)`")
"""A reference as a docstring writes it: its role and its target."""

TOP = ("controller", "drivers", "firmware_bridge")
"""The packages of the shipped code: a dotted name that starts with one of them is absolute."""

MISSING = object()
"""What a name that is not there looks up to."""

DECLARED = object()
"""What a class's attribute that is declared but holds no object on the class looks up to."""


@dataclasses.dataclass(frozen=True)
class Reference:
    """One reference in one docstring: where it is, its role, its target as written, and the classes
    (their names, outermost first) the docstring stands in."""

    path: Path
    line: int
    role: str
    target: str
    scope: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: :{self.role}:`{self.target}`"


def docstrings(tree: ast.Module) -> Iterator[tuple[int, tuple[str, ...], str]]:
    """Every docstring of a module's tree: its first line, the classes it stands in, its text."""
    yield from _body(tree.body, ())


def _body(body: list[ast.stmt], scope: tuple[str, ...]) -> Iterator[tuple[int, tuple[str, ...], str]]:
    previous: ast.stmt | None = None
    for number, node in enumerate(body):
        text = _string(node)
        if text is not None and (number == 0 or isinstance(previous, ast.Assign | ast.AnnAssign)):
            yield node.lineno, scope, text
        if isinstance(node, ast.ClassDef):
            yield from _body(node.body, (*scope, node.name))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _body(node.body, scope)
        elif isinstance(node, ast.If | ast.Try | ast.With):
            yield from _body([*node.body, *getattr(node, "orelse", [])], scope)
        previous = node


def _string(node: ast.stmt) -> str | None:
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
            and isinstance(node.value.value, str):
        return node.value.value
    return None


def references(path: Path, source: str) -> list[Reference]:
    """The references in the docstrings of one file's source."""
    found = []
    for line, scope, text in docstrings(ast.parse(source, str(path))):
        for match in ROLE.finditer(text):
            at = line + text.count("\n", 0, match.start())
            found.append(Reference(path, at, match[1], match[2], scope))
    return found


def module_name(path: Path, root: Path) -> str:
    """The module a file under ``root`` is: ``controller/table/__init__.py`` is ``controller.table``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def target_of(written: str) -> str:
    """The name a reference's target names: ``~a.b()`` and ``the b <a.b>`` both name ``a.b``."""
    titled = re.fullmatch(r".*<([^<>]+)>", written.strip(), re.S)
    name = (titled[1] if titled else written).strip().lstrip("~!")
    return name.removesuffix("()")


def problem(reference: Reference, module: str) -> str | None:
    """Why ``reference``, in a docstring of ``module``, names nothing; None when it names something."""
    name = target_of(reference.target)
    if not re.fullmatch(r"\.?[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", name):
        return f"{reference}: not a Python name"
    found = _resolve(name, reference.role, module, reference.scope)
    if found is MISSING:
        return f"{reference}: names nothing (looked up as {name!r} from {module})"
    if reference.role == "mod" and not inspect.ismodule(found):
        return f"{reference}: {name!r} is not a module"
    return None


def _resolve(name: str, role: str, module: str, scope: tuple[str, ...]) -> object:
    parts = name.split(".")
    if name.startswith("."):
        package = module if _is_package(module) else module.rpartition(".")[0]
        while package:
            found = absolute(f"{package}{name}".split("."))
            if found is not MISSING:
                return found
            package = package.rpartition(".")[0]
        return MISSING
    if parts[0] in TOP:
        return absolute(parts)
    home = importlib.import_module(module)
    for depth in range(len(scope), 0, -1):
        around = walk(home, list(scope[:depth]))
        if inspect.isclass(around):
            found = walk(around, parts)
            if found is not MISSING:
                return found
    found = walk(home, parts)
    if found is MISSING and hasattr(builtins, parts[0]):
        found = walk(builtins, parts)
    if found is MISSING and (len(parts) > 1 or role == "mod"):
        found = absolute(parts)
    return found


def _is_package(module: str) -> bool:
    return hasattr(importlib.import_module(module), "__path__")


def absolute(parts: list[str]) -> object:
    """The object a dotted name names from the top: the longest module it starts with, imported,
    and the rest looked up on it."""
    for length in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:length]))
        except ModuleNotFoundError:
            continue
        return walk(found, parts[length:])
    return MISSING


def walk(start: object, parts: list[str]) -> object:
    """``start``'s attribute ``parts[0]``, its attribute ``parts[1]``, ...; MISSING if one is not there."""
    found = start
    for part in parts:
        if found is DECLARED:
            return MISSING
        found = lookup(found, part)
        if found is MISSING:
            return MISSING
    return found


def lookup(holder: object, name: str) -> object:
    """One attribute of a module (or a name it imports for type checking, or a submodule), or of a
    class (or one its instances are declared or set to have)."""
    try:
        return getattr(holder, name)
    except AttributeError:
        pass
    if isinstance(holder, ModuleType):
        imported = type_checking_imports(holder.__name__).get(name)
        if imported is not None:
            return absolute(imported.split("."))
        try:
            return importlib.import_module(f"{holder.__name__}.{name}")
        except ModuleNotFoundError:
            return MISSING
    if inspect.isclass(holder) and name in attribute_names(holder):
        return DECLARED
    return MISSING


@cache
def type_checking_imports(module: str) -> dict[str, str]:
    """The names a module imports under ``if TYPE_CHECKING:``, each with the dotted name it stands for."""
    source_file = getattr(sys.modules[module], "__file__", None)
    if source_file is None or not source_file.endswith(".py"):
        return {}
    tree = ast.parse(Path(source_file).read_text())
    package = module if Path(source_file).name == "__init__.py" else module.rpartition(".")[0]
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    base = statement.module or ""
                    if statement.level:
                        base = ".".join([*package.split(".")[:len(package.split(".")) - statement.level + 1],
                                         *([base] if base else [])])
                    for alias in statement.names:
                        names[alias.asname or alias.name] = f"{base}.{alias.name}"
                elif isinstance(statement, ast.Import):
                    for alias in statement.names:
                        names[alias.asname or alias.name.partition(".")[0]] = (
                            alias.name if alias.asname else alias.name.partition(".")[0])
    return names


@cache
def attribute_names(cls: type) -> frozenset[str]:
    """The attributes a class's instances have by its declarations: annotations, dataclass fields,
    ``__slots__``, and what its methods (and those of the classes it derives from) set on ``self``."""
    names: set[str] = set()
    for klass in inspect.getmro(cls):
        names.update(inspect.get_annotations(klass))
        slots = klass.__dict__.get("__slots__", ())
        names.update([slots] if isinstance(slots, str) else slots)
        if dataclasses.is_dataclass(klass):
            names.update(field.name for field in dataclasses.fields(klass))
        try:
            source = inspect.getsource(klass) if klass.__module__ != "builtins" else ""
            tree = ast.parse(textwrap.dedent(source))
        except (OSError, TypeError, SyntaxError, IndentationError):
            continue
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, ast.AnnAssign | ast.AugAssign) else [])
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id == "self":
                    names.add(target.attr)
    return frozenset(names)
