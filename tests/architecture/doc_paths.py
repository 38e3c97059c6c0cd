"""The files the project's Markdown names, and whether each is in the repository: paths in inline
code (`` `controller/table/ledger.py` ``, `` `tests/model/` ``, a command's `` bench/x.py ``) and the
targets of relative links (``(boards.md#air-time)``, ``(pit-monitor.png)``), with the anchor of a
link into a Markdown file.

Fenced code blocks are left out (their commands and file trees are checked by the tests of their
own docs, where there are any). In inline code, each word that looks like a path is taken: one with
a ``/`` in it, or a file name ending in ``.py`` or ``.md``; not an address (``tcp://...``,
``/api/floor``, ``/etc/...``: a leading ``/`` is the web's or the machine's, not the repository's),
nor a word with a placeholder or a pattern's characters in it (``<``, ``{``, ``$``, ``=``, ``?``,
``...``) but ``*`` (``deploy/*.toml``: a glob must match a file). Then:

- a path that starts with one of the repository's top-level files or folders (``controller/``,
  ``tests/``, ``docs/``, ``Makefile``) must be there, from the top;
- a path from where the doc stands must be there (``games/easy-jack.md`` in docs/);
- any other path that names a file of the kinds the project holds (:data:`KINDS`) is named within a
  part the text is about (``pages/floor.py`` in the pit monitor's docs, ``follow/sources.py``, a bare
  ``cli.py``): some file of the repository must end with it. Other words with a ``/`` are taken for
  what they also are in these docs, a pit topic (``T07/card.dealt``), a folder on the Pi
  (``versions/VERSION/``), blinds (``A/B/C-D``), an address range (``127.0.0.0/8``).

What a program makes as it runs, and what the person installing it names, is not the repository's:
:data:`ELSEWHERE` holds the folders such paths start with, :data:`OTHER_PROJECTS` the files of other
projects the docs name. A link's target is read from the doc's
folder and must be there; its anchor must be one of the target's headings, made into an anchor as
GitHub makes them (lower case, punctuation but ``-`` and ``_`` dropped, spaces to ``-``).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[ \t]*$", re.M | re.S)
"""A fenced code block."""

CODE = re.compile(r"(`+)(.+?)\1", re.S)
"""An inline code span."""

LINK = re.compile(r"\]\(([^()\s]+)\)")
"""A link's target: ``[text](target)``, an image's too."""

PATHLIKE = re.compile(r"[\w.*-]+(/[\w.*-]+)*/?")
"""A word made of what paths are made of."""

ELSEWHERE = frozenset({".venv", ".cache", "build", "keys"})
"""Folders named in the docs that are not the repository's: the virtual environment, the deck
pictures and MicroPython's build the tests fetch, the CURVE keys of a floor file."""

OTHER_PROJECTS = frozenset({"transitions/core.py", "serialhdl.py", "msgproto.py"})
"""Files of other projects the docs name: a dependency's (transitions), Klipper's."""

KINDS = frozenset({".py", ".md", ".toml", ".sh", ".js", ".html", ".css", ".json", ".jsonl", ".gz", ".png",
                   ".txt", ".lock", ".service", ".cfg", ".ini", ".yml", ".yaml"})
"""The kinds of file the project holds: a path of one of them, from no known folder, is looked for
among the repository's files by its end."""


@dataclass(frozen=True)
class Named:
    """A file named in a doc: the doc, the line, and the path (and anchor) as written."""

    doc: Path
    line: int
    path: str
    link: bool

    def __str__(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}: {'link' if self.link else 'code'} {self.path}"


def docs() -> list[Path]:
    """The Markdown of the project: README.md and every doc under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def named(doc: Path, text: str) -> Iterator[Named]:
    """The paths ``text`` (the doc ``doc``) names in inline code and in relative links."""
    text = FENCE.sub(lambda block: "\n" * block[0].count("\n"), text)
    for span in CODE.finditer(text):
        line = text.count("\n", 0, span.start()) + 1
        for word in span[2].split():
            if _pathlike(word):
                yield Named(doc, line, word, link=False)
    prose = CODE.sub(lambda span: "\n" * span[0].count("\n"), text)
    for link in LINK.finditer(prose):
        target = link[1]
        if not re.match(r"[a-z][a-z0-9+.-]*:", target):        # http:, mailto:, ...
            yield Named(doc, prose.count("\n", 0, link.start()) + 1, target, link=True)


def _pathlike(word: str) -> bool:
    word = word.removeprefix("./")
    if not PATHLIKE.fullmatch(word) or "..." in word:
        return False
    return "/" in word.strip("/") or (word.endswith("/") and len(word) > 1) or word.endswith((".py", ".md"))


def problem(item: Named) -> str | None:
    """Why ``item`` names nothing in the repository; None when it does."""
    if item.link:
        return _link_problem(item)
    path = item.path.removeprefix("./")
    first = path.split("/")[0]
    if first in ELSEWHERE or path in OTHER_PROJECTS:
        return None
    if "*" in path:
        return None if any(ROOT.glob(path)) or any(item.doc.parent.glob(path)) else f"{item}: matches nothing"
    if first in top_level():
        return None if (ROOT / path).exists() else f"{item}: not in the repository"
    if (item.doc.parent / path).exists() or Path(path.rstrip("/")).suffix not in KINDS:
        return None
    ending = "/" + path.strip("/")
    if any(known.endswith(ending) or known == path.strip("/") for known in known_paths()):
        return None
    return f"{item}: no file or folder of the repository is {path!r} or ends with it"


def _link_problem(item: Named) -> str | None:
    target, _, anchor = item.path.partition("#")
    file = (item.doc.parent / target).resolve() if target else item.doc
    if not file.exists():
        return f"{item}: {target} is not there"
    if anchor and file.suffix == ".md" and anchor not in anchors(file):
        return f"{item}: {file.relative_to(ROOT)} has no heading #{anchor}"
    return None


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: ``The table's books`` is ``the-tables-books``."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@cache
def anchors(doc: Path) -> frozenset[str]:
    """The anchors of a Markdown file's headings (outside fenced code)."""
    text = FENCE.sub("", doc.read_text())
    return frozenset(anchor(heading) for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", text, re.M))


@cache
def known_paths() -> frozenset[str]:
    """Every file the repository holds (by git, with those not added yet) and every folder above one."""
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout
    known: set[str] = set()
    for file in files.splitlines():
        parts = file.split("/")
        known.update("/".join(parts[:end]) for end in range(1, len(parts) + 1))
    return frozenset(known)


@cache
def top_level() -> frozenset[str]:
    """The repository's top-level files and folders."""
    return frozenset(path.split("/")[0] for path in known_paths())
