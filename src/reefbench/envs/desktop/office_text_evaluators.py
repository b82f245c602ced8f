"""Checkpoints on what professional Writer and Impress work leaves in a saved document:
a table of contents and where it stands, a footer's page fields, a PDF export's page
footers, a slide's bullets with their levels, a slide's speaker notes.

Each check is a plain function of the file (``*_problem``: ``""`` when the file passes,
else what is wrong, one line), so tests run it on small generated files; the evaluators
wrap them for the desktop (each governs the file it reads, like
:mod:`reefbench.envs.desktop.office_evaluators`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.documents import (
    DocumentUnreadable,
    read_pdf,
    read_presentation,
    read_text_document,
)
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import _file, file_key


def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


# Writer's autocorrect turns typed quotes into typographic ones; a person reads them alike.
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def _same(a: str, b: str) -> bool:
    return " ".join(a.translate(_QUOTES).split()) == " ".join(b.translate(_QUOTES).split())


# ---------------------------------------------------------------- pure checks
def _toc_position(path: Path) -> tuple[int, list[str]]:
    """The index of the first table of contents among the body's top-level elements, and
    the plain text of every top-level element (``-1`` and the texts without one)."""
    from reefbench.documents.odf_xml import _is, _load, _plain

    document = _load(path, "text")
    texts: list[str] = []
    toc = -1
    for index, node in enumerate(document.text.childNodes):
        if _is(node, "TEXTNS", "table-of-content") and toc < 0:
            toc = index
        texts.append(_plain(node) if _is(node, "TEXTNS", "p", "h") else "")
    return toc, texts


def toc_problem(path: Path, entries: list[str], after: str = "", before: str = "") -> str:
    """The document has a table of contents whose entries (as Writer last updated it) are
    exactly ``entries`` in order, standing after the paragraph ``after`` and before the
    paragraph ``before`` (each when given)."""
    document = read_text_document(path)
    if document.toc is None:
        return "it has no table of contents"
    found = list(document.toc.entries)
    if [" ".join(e.split()) for e in found] != [" ".join(e.split()) for e in entries]:
        shown = "; ".join(found) or "no entries (never updated?)"
        return f"its table of contents lists {shown}, not {'; '.join(entries)}"
    if not (after or before) or not str(path).endswith(".odt"):
        return ""
    toc, texts = _toc_position(path)
    if toc < 0:  # inside a section: no place to check it by
        return ""
    if after:
        at = next((i for i, t in enumerate(texts) if _same(t, after)), None)
        if at is None or at > toc:
            return f"its table of contents is not below {after!r}"
    if before:
        at = next((i for i, t in enumerate(texts) if _same(t, before)), None)
        if at is None or at < toc:
            return f"its table of contents is not above {before!r}"
    return ""


def _unpunctuated(text: str) -> str:
    return text.strip().rstrip(".!?;:,").strip()


def comment_problem(path: Path, anchor: str, text: str) -> str:
    """The document has a comment saying ``text`` attached to exactly the text
    ``anchor`` (spacing, straight or typographic quotes and the sentence's closing
    punctuation aside: a selection that leaves out the full stop is still that sentence;
    a comment at a point has no anchor)."""
    comments = read_text_document(path).comments
    if not comments:
        return "it has no comment"
    for comment in comments:
        if _same(comment.text, text) and _same(
            _unpunctuated(comment.anchor), _unpunctuated(anchor)
        ):
            return ""
    shown = "; ".join(f"{c.text!r} on {c.anchor!r}" for c in comments)
    return f"no comment {text!r} on {anchor!r}; it has {shown}"


def _pattern(template: str) -> str:
    parts = re.split(r"(\{page\}|\{pages\})", template)
    return "".join(r"\d+" if p in ("{page}", "{pages}") else re.escape(p) for p in parts)


def footer_problem(path: Path, template: str) -> str:
    """A footer of the document reads ``template`` with ``{page}`` the page-number field
    and ``{pages}`` the page-count field (real fields, not typed numbers)."""
    document = read_text_document(path)
    if not document.footers:
        return "it has no footer"
    wanted = _pattern(template)
    for footer in document.footers:
        text = " ".join(footer.text.split())
        if not re.fullmatch(wanted, text):
            continue
        if "{page}" in template and not footer.page_number:
            continue
        if "{pages}" in template and not footer.page_count:
            continue
        return ""
    shown = "; ".join(
        f"{f.text!r} (page number field: {'yes' if f.page_number else 'no'}, page count "
        f"field: {'yes' if f.page_count else 'no'})"
        for f in document.footers
    )
    return f"no footer reads {template!r} with fields; it has {shown}"


def pdf_footer_problem(path: Path, template: str, min_pages: int = 1) -> str:
    """Every page of the PDF shows ``template`` with ``{page}`` its own number and
    ``{pages}`` the PDF's page count, and it has at least ``min_pages`` pages."""
    pdf = read_pdf(path)
    count = pdf.page_count
    if count < min_pages:
        return f"it has {count} pages, not at least {min_pages}"
    for number, page in enumerate(pdf.pages, 1):
        wanted = template.format(page=number, pages=count)
        if wanted not in " ".join(page.text.split()):
            return f"its page {number} does not show {wanted!r}"
    return ""


def bullets_problem(path: Path, number: int, bullets: list[str]) -> str:
    """Slide ``number`` of the presentation has exactly these bullets, each written
    ``"<level>|<text>"`` (level 1 the top)."""
    deck = read_presentation(path)
    if number > len(deck.slides):
        return f"it has no slide {number}"
    found = [f"{b.level}|{' '.join(b.text.split())}" for b in deck.slides[number - 1].bullets]
    wanted = [f"{b.split('|', 1)[0]}|{' '.join(b.split('|', 1)[1].split())}" for b in bullets]
    if found != wanted:
        return f"slide {number}'s bullets are {found or 'none'}, not {wanted}"
    return ""


def notes_problem(path: Path, title: str, notes: str) -> str:
    """The slide titled ``title`` has these speaker notes (spacing aside)."""
    deck = read_presentation(path)
    matching = [s for s in deck.slides if _same(s.title, title)]
    if not matching:
        return f"it has no slide titled {title!r}"
    if not any(_same(s.notes, notes) for s in matching):
        return f"the notes of {title!r} are {matching[0].notes!r}"
    return ""


def titles_problem(path: Path, titles: list[str]) -> str:
    """The presentation's slides are titled ``titles``, in this order."""
    found = [" ".join(s.title.split()) for s in read_presentation(path).slides]
    if found != [" ".join(t.split()) for t in titles]:
        return f"its slides are titled {found}, not {titles}"
    return ""


def pdf_pages_problem(path: Path, titles: list[str]) -> str:
    """The PDF has one page per entry of ``titles``, in order, each page showing its
    title (spacing aside): an export of exactly these slides or sections."""
    pages = [" ".join(page.text.split()) for page in read_pdf(path).pages]
    if len(pages) != len(titles):
        return f"it has {len(pages)} pages, not {len(titles)}"
    for number, (text, title) in enumerate(zip(pages, titles, strict=True), 1):
        if " ".join(title.split()) not in text:
            return f"its page {number} does not show {title!r}"
    return ""


def changes_problem(path: Path) -> str:
    """The text document has no tracked change left to accept or reject."""
    changes = read_text_document(path).changes
    if changes:
        authors = ", ".join(sorted({c.author for c in changes}))
        return f"{len(changes)} tracked changes are still pending (by {authors})"
    return ""


# ------------------------------------------------------------------ evaluators
def _result(env: DesktopDevice, path: str, check: Any, ok: str, *args: Any) -> EvalResult:
    target = _file(env, path)
    if target is None:
        return EvalResult(success=False, message=f"{path} does not exist")
    try:
        problem = check(target, *args)
    except DocumentUnreadable as exc:
        return EvalResult(success=False, message=str(exc))
    if problem:
        return EvalResult(success=False, message=f"{path}: {problem}")
    return EvalResult(success=True, message=f"{path} {ok}")


@evaluator(governs=_path_keys)
def document_toc(
    path: str, entries: list[str], after: str = "", before: str = "", *, env: DesktopDevice
) -> EvalResult:
    """The text document has a table of contents listing exactly these entries in order
    (as last updated), placed after the paragraph ``after`` and before ``before``.

    Args:
        path: The document as the agent sees it, e.g. "~/Documents/report.odt".
        entries: The headings it lists, in order.
        after: Text of a paragraph it must follow (empty: anywhere).
        before: Text of a paragraph it must precede (empty: anywhere).
    """
    return _result(env, path, toc_problem, "has the table of contents", entries, after, before)


@evaluator(governs=_path_keys)
def document_comment(path: str, anchor: str, text: str, *, env: DesktopDevice) -> EvalResult:
    """The text document has a comment saying ``text`` attached to the text ``anchor``.

    Args:
        path: The document as the agent sees it.
        anchor: The exact text the comment spans (a sentence).
        text: What the comment says.
    """
    return _result(env, path, comment_problem, f"has the comment {text!r}", anchor, text)


@evaluator(governs=_path_keys)
def document_footer(path: str, template: str, *, env: DesktopDevice) -> EvalResult:
    """A footer of the text document reads ``template``, where ``{page}`` stands for the
    page-number field and ``{pages}`` for the page-count field.

    Args:
        path: The document as the agent sees it.
        template: The footer's words, e.g. "Page {page} of {pages}".
    """
    return _result(env, path, footer_problem, f"has the footer {template!r}", template)


@evaluator(governs=_path_keys)
def pdf_page_footers(
    path: str, template: str, min_pages: int = 1, *, env: DesktopDevice
) -> EvalResult:
    """Every page of the PDF shows ``template`` filled in with its number (``{page}``) and
    the page count (``{pages}``).

    Args:
        path: The PDF as the agent sees it, e.g. "~/Documents/report.pdf".
        template: E.g. "Page {page} of {pages}".
        min_pages: The fewest pages it may have.
    """
    return _result(
        env, path, pdf_footer_problem, f"shows {template!r} on each page", template, min_pages
    )


@evaluator(governs=_path_keys)
def slide_bullets(path: str, number: int, bullets: list[str], *, env: DesktopDevice) -> EvalResult:
    """Slide ``number`` of the presentation has exactly these bullets at these levels.

    Args:
        path: The presentation as the agent sees it.
        number: The slide's position, from 1.
        bullets: Each bullet as "<level>|<text>", level 1 the top, in order.
    """
    return _result(env, path, bullets_problem, f"slide {number} has its bullets", number, bullets)


@evaluator(governs=_path_keys)
def slide_notes(path: str, title: str, notes: str, *, env: DesktopDevice) -> EvalResult:
    """The slide titled ``title`` has these speaker notes.

    Args:
        path: The presentation as the agent sees it.
        title: The slide's title.
        notes: Its speaker notes' text (spacing aside).
    """
    return _result(env, path, notes_problem, f"has the notes of {title!r}", title, notes)


@evaluator(governs=_path_keys)
def slide_titles(path: str, titles: list[str], *, env: DesktopDevice) -> EvalResult:
    """The presentation's slides have these titles, in this order (and no others).

    Args:
        path: The presentation as the agent sees it.
        titles: Every slide's title, in order.
    """
    return _result(env, path, titles_problem, "has its slides in order", titles)


@evaluator(governs=_path_keys)
def pdf_pages(path: str, titles: list[str], *, env: DesktopDevice) -> EvalResult:
    """The PDF has exactly one page per title, in this order, each showing its title.

    Args:
        path: The PDF as the agent sees it, e.g. "~/Documents/extract.pdf".
        titles: What each page shows (a slide's title), in page order.
    """
    return _result(env, path, pdf_pages_problem, f"has the {len(titles)} pages asked for", titles)


@evaluator(governs=_path_keys)
def document_no_changes(path: str, *, env: DesktopDevice) -> EvalResult:
    """The text document carries no tracked change still to accept or reject.

    Args:
        path: The document as the agent sees it, e.g. "~/Documents/contract.odt".
    """
    return _result(env, path, changes_problem, "has no tracked change pending")
