"""Checkpoints on a Word copy of a report whose inline citations became footnotes: reef-v2's
"citations to footnotes, send a .docx" template
(:mod:`reefbench.benchmark.templates.writer_notes`).

Both read the ``.docx`` through python-docx and its lxml tree: the footnotes live in the
package part ``word/footnotes.xml`` (reached through the document part's relationship),
and each is anchored in the body by a ``w:footnoteReference`` run. The body is read in
document order with a mark (:data:`NOTE`) where each reference stands, so the checks see
where a note is, not only that it exists.

Each takes the report's paragraphs as written, ``[Source: ...]`` citations included, and
derives what is expected: the sources as footnotes in order, and the text with every
citation gone and a footnote mark in its place. Tolerances, as the instruction states:
spacing, typographic quotes, a full stop at the end of a note, letter case in a note, and
a mark on either side of the punctuation next to where the citation stood.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.documents.detect import NAMES, file_format
from reefbench.documents.model import DocumentUnreadable
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import _file, file_key

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NOTE = "\u2020"  # where a footnote's mark stands in a body paragraph (shown as a dagger)
CITATION = re.compile(r"\s*\[Source:\s*([^\]]*)\]")
_LEFT_CITATION = re.compile(r"\[\s*source\s*:[^\]]*\]?", re.IGNORECASE)
_BRACKET = re.compile(r"\[[^\]]*\]")
_PUNCTUATION = ".,;:!?"
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def _q(name: str) -> str:
    return f"{{{W}}}{name}"


@dataclass(frozen=True)
class WordNotes:
    """A Word document's body paragraphs (a :data:`NOTE` where each footnote reference
    stands), its footnotes' texts in the order the body refers to them, and how many
    endnotes the body refers to."""

    paragraphs: list[str]
    footnotes: list[str]
    endnotes: int


def _note_texts(document: Any, relation: str, tag: str) -> dict[str, str]:
    from docx.oxml import parse_xml

    try:
        part = document.part.part_related_by(relation)
    except KeyError:
        return {}
    texts = {}
    for note in parse_xml(part.blob).iter(_q(tag)):
        if note.get(_q("type")) in ("separator", "continuationSeparator", "continuationNotice"):
            continue
        lines = ["".join(t.text or "" for t in p.iter(_q("t"))) for p in note.iter(_q("p"))]
        texts[note.get(_q("id"))] = "\n".join(lines).strip()
    return texts


def read_word_notes(path: Path) -> WordNotes:
    """The body and footnotes of the Word document at ``path``.

    Raises:
        DocumentUnreadable: it is missing, not a Word document (an ``.odt`` under a
            ``.docx`` name too), or corrupt.
    """
    kind = file_format(path)
    if kind != "docx":
        raise DocumentUnreadable(f"{path.name} is {NAMES[kind]}, not a Word document")
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE as RT

    try:
        document = docx.Document(str(path))
    except Exception as exc:  # python-docx raises several kinds on a broken package
        raise DocumentUnreadable(f"{path.name} is not a readable Word document ({exc})") from None
    footnotes = _note_texts(document, RT.FOOTNOTES, "footnote")
    found: list[str] = []
    referred: list[str] = []
    endnotes = 0
    wanted = (_q("t"), _q("tab"), _q("br"), _q("footnoteReference"), _q("endnoteReference"))
    for p in document.element.body.iter(_q("p")):
        parts = []
        for node in p.iter(*wanted):
            if node.tag == _q("t"):
                parts.append(node.text or "")
            elif node.tag == _q("footnoteReference"):
                parts.append(NOTE)
                referred.append(footnotes.get(node.get(_q("id")), ""))
            elif node.tag == _q("endnoteReference"):
                endnotes += 1
            else:
                parts.append(" ")
        found.append("".join(parts))
    return WordNotes(found, referred, endnotes)


# ------------------------------------------------------------------ expected
def sources(paragraphs: Sequence[str]) -> list[str]:
    """The sources the paragraphs cite, in order (a source cited twice comes twice)."""
    return [m.group(1).strip() for p in paragraphs for m in CITATION.finditer(p)]


def noted(paragraph: str) -> str:
    """``paragraph`` with each citation (and the space before it) replaced by a mark."""
    return CITATION.sub(NOTE, paragraph)


def canonical(text: str) -> str:
    """``text`` compared loosely: quotes straight, spaces folded, none before punctuation
    or a mark, and a mark moved before the punctuation just before it."""
    text = " ".join(text.translate(_QUOTES).split())
    text = re.sub(rf"\s+(?=[{re.escape(_PUNCTUATION)}{NOTE}])", "", text)
    return re.sub(rf"([{re.escape(_PUNCTUATION)}]+){NOTE}", rf"{NOTE}\1", text)


def _note(text: str) -> str:
    return " ".join(text.translate(_QUOTES).split()).rstrip(" .").casefold()


def _shown(text: str) -> str:
    return text if len(text) <= 200 else text[:197] + "..."


# ---------------------------------------------------------------- pure checks
def footnotes_problem(path: Path, paragraphs: Sequence[str]) -> str:
    """Every citation of ``paragraphs`` is a footnote of the Word document, in order, whose
    text is the source alone; ``""`` when so."""
    try:
        notes = read_word_notes(path)
    except DocumentUnreadable as exc:
        return str(exc)
    cited = sources(paragraphs)
    have = notes.footnotes
    if not have and notes.endnotes:
        return f"its {notes.endnotes} notes are endnotes, not footnotes"
    if notes.endnotes:
        return f"it has {notes.endnotes} endnotes besides its footnotes: every note is a footnote"
    for index, source in enumerate(cited):
        if index >= len(have) or (
            _note(have[index]) != _note(source)
            and index + 1 < len(cited)
            and _note(have[index]) == _note(cited[index + 1])
        ):
            return (
                f"citation {index + 1} ({source!r}) has no footnote: the document has "
                f"{len(have)} footnotes for {len(cited)} citations"
            )
        if _note(have[index]) != _note(source):
            hint = ""
            if re.search(r"source\s*:|\[", have[index], re.IGNORECASE):
                hint = " (the source alone, without 'Source:' and the brackets)"
            return f"footnote {index + 1} reads {have[index]!r}, expected {source!r}{hint}"
    if len(have) > len(cited):
        return f"it has {len(have)} footnotes, expected {len(cited)} (one per citation)"
    return ""


def body_problem(path: Path, paragraphs: Sequence[str]) -> str:
    """The Word document's text is ``paragraphs`` with every citation gone and a footnote
    mark in its place, other brackets kept; ``""`` when so."""
    try:
        notes = read_word_notes(path)
    except DocumentUnreadable as exc:
        return str(exc)
    for text in notes.paragraphs:
        left = _LEFT_CITATION.search(text.replace(NOTE, ""))
        if left:
            return f"the text still holds the citation {_shown(left.group(0))!r}"
    body = " ".join(notes.paragraphs)
    for bracket in (b for p in paragraphs for b in _BRACKET.findall(p)):
        if not CITATION.fullmatch(bracket) and canonical(bracket) not in canonical(body):
            return f"the bracket {bracket!r} is gone: only the [Source: ...] citations go"
    have = [canonical(t) for t in notes.paragraphs if t.strip()]
    want = [canonical(noted(p)) for p in paragraphs if p.strip()]
    for index, (got, wanted) in enumerate(zip(have, want, strict=False)):
        if got != wanted:
            return (
                f"paragraph {index + 1} reads {_shown(got)!r}, expected {_shown(wanted)!r} "
                f"({NOTE} marks a footnote)"
            )
    if len(have) != len(want):
        return f"the document has {len(have)} paragraphs, expected {len(want)}"
    return ""


# ---------------------------------------------------------------- evaluators
def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


def _result(env: DesktopDevice, path: str, problem: str, passed: str) -> EvalResult:
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path} {passed}")


@evaluator(governs=_path_keys)
def citations_as_footnotes(path: str, paragraphs: list[str], *, env: DesktopDevice) -> EvalResult:
    """The Word document (.docx) has one footnote per "[Source: ...]" citation of the
    original text, in the same order, each reading the source alone.

    Args:
        path: The Word document as the agent sees it, e.g. "~/Documents/report.docx".
        paragraphs: The original document's paragraphs, citations included.
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    return _result(
        env, path, footnotes_problem(target, paragraphs), "has a footnote for every citation"
    )


@evaluator(governs=_path_keys)
def text_without_citations(path: str, paragraphs: list[str], *, env: DesktopDevice) -> EvalResult:
    """The Word document's text is the original's with every "[Source: ...]" citation
    removed and a footnote mark where it stood; nothing else changed.

    Args:
        path: The Word document as the agent sees it, e.g. "~/Documents/report.docx".
        paragraphs: The original document's paragraphs, citations included.
    """
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    return _result(
        env,
        path,
        body_problem(target, paragraphs),
        "reads as before, each citation a footnote mark",
    )
