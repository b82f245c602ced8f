"""Checkpoints on the media a deck gained in Impress: a picture from a file on a named
slide, a table of figures on a named slide, and the PDF export of the finished deck.

Each check is a plain function of the files (``*_problem``: ``""`` when they pass, else
what is wrong, one line), so tests run it on small generated files; the evaluators wrap
them for the desktop, each governing the file it reads (as
:mod:`reefbench.envs.desktop.office_text_evaluators` does).

A picture is compared by its decoded pixels, not its bytes: LibreOffice may store an
inserted picture re-encoded. A table's numbers are compared as numbers, so "1,234",
"1 234" and "1234" are the same figure.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.documents import read_pdf, read_presentation
from reefbench.envs.desktop.device import DesktopDevice
from reefbench.envs.desktop.evaluators import _file, file_key
from reefbench.envs.desktop.office_text_evaluators import _result

# The mean difference per channel (of 255) up to which two decoded pictures are the same:
# re-encoding passes, another picture does not.
PIXEL_TOLERANCE = 8
# A thousands separator between digits: comma, space, no-break or thin space, apostrophe.
_SEPARATOR = re.compile(r"(?<=\d)[,\s\u00a0\u202f\u2009'](?=\d{3}(?!\d))")
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")
# In a PDF page's text, a separator between any two digits: cells come out run together
# ("North18,450312"), so a separator is not followed by exactly three digits there.
_PAGE_SEPARATOR = re.compile(r"(?<=\d)[,\u00a0\u202f\u2009'](?=\d)")


def _path_keys(path: str, **_: Any) -> list[str]:
    return [file_key(path)]


def _words(text: str) -> str:
    return " ".join(text.split())


def _plain_number(text: str) -> str:
    """``"18,450"`` -> ``"18450"`` (thousands separators dropped); other text as is."""
    return _SEPARATOR.sub("", _words(text))


def _same_cell(found: str, wanted: str) -> bool:
    a, b = _plain_number(found), _plain_number(wanted)
    if _NUMBER.fullmatch(a) and _NUMBER.fullmatch(b):
        return float(a) == float(b)
    return a.casefold() == b.casefold()


def _slide_index(path: Path, title: str) -> tuple[int, str]:
    """The index of the one slide titled ``title`` and ``""``, or ``-1`` and the problem."""
    titles = [_words(s.title) for s in read_presentation(path).slides]
    matching = [i for i, t in enumerate(titles) if t.casefold() == _words(title).casefold()]
    if not matching:
        return -1, f"it has no slide titled {title!r} (its slides: {titles})"
    if len(matching) > 1:
        return -1, f"it has {len(matching)} slides titled {title!r}"
    return matching[0], ""


# ---------------------------------------------------------------- pure checks
def _slide_images(path: Path, index: int) -> list[str]:
    """The image references of the pictures on slide ``index`` (a frame's image that
    only stands in for a table, chart or object is not a picture)."""
    from reefbench.documents.odf_xml import _attr, _is, _load, _walk

    document = _load(path, "presentation")
    page = _walk(document.presentation, "DRAWNS", ("page",))[index]
    found = []
    for frame in _walk(page, "DRAWNS", ("frame",), skip=(("PRESENTATIONNS", "notes"),)):
        kids = frame.childNodes
        if any(_is(c, "DRAWNS", "object", "object-ole", "plugin") for c in kids):
            continue
        if any(_is(c, "TABLENS", "table") for c in kids):
            continue
        found += [_attr(c, "XLINKNS", "href") for c in kids if _is(c, "DRAWNS", "image")]
    return found


def _difference(stored: bytes, source: Path) -> float:
    """The mean difference per channel between a stored picture and the source file
    (the stored one scaled to the source's size first); ``inf`` when it does not decode."""
    import io

    from PIL import Image, ImageChops, ImageStat, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(stored)) as img, Image.open(source) as src:
            wanted = src.convert("RGB")
            got = img.convert("RGB")
            if got.size != wanted.size:
                got = got.resize(wanted.size, Image.Resampling.LANCZOS)
            return float(max(ImageStat.Stat(ImageChops.difference(wanted, got)).mean))
    except (OSError, UnidentifiedImageError):
        return float("inf")


def picture_problem(path: Path, title: str, source: Path, shown: str = "") -> str:
    """The slide titled ``title`` shows the picture ``source`` (by its pixels), stored in
    the deck rather than linked to the file. ``shown`` names the source in messages."""
    index, problem = _slide_index(path, title)
    if problem:
        return problem
    shown = shown or source.name
    images = _slide_images(path, index)
    if not images:
        return f"slide {title!r} has no picture"
    linked = [i for i in images if "://" in i or i.startswith(("/", ".."))]
    best = float("inf")
    with zipfile.ZipFile(path) as package:
        names = set(package.namelist())
        for image in images:
            if image in names:
                best = min(best, _difference(package.read(image), source))
    if best <= PIXEL_TOLERANCE:
        return ""
    if linked and best == float("inf"):
        return f"the picture on slide {title!r} is linked to {linked[0]}, not stored in the deck"
    if best == float("inf"):
        return f"the picture on slide {title!r} cannot be read"
    return f"the picture on slide {title!r} is not {shown} (difference {best:.0f} of 255)"


def _table_rows(rows: tuple[tuple[str, ...], ...]) -> list[list[str]]:
    """A table's rows without its entirely empty rows and columns (spacing collapsed)."""
    cells = [[_words(c) for c in row] for row in rows]
    cells = [row for row in cells if any(row)]
    width = max((len(r) for r in cells), default=0)
    padded = [row + [""] * (width - len(row)) for row in cells]
    keep = [c for c in range(width) if any(row[c] for row in padded)]
    return [[row[c] for c in keep] for row in padded]


def table_problem(path: Path, title: str, rows: list[list[str]]) -> str:
    """The slide titled ``title`` holds a table (an Impress table, not text boxes) whose
    cells are ``rows``, row by row; numbers compare as numbers ("1,234" is 1234), words
    ignoring case and spacing; entirely empty rows and columns are ignored."""
    index, problem = _slide_index(path, title)
    if problem:
        return problem
    slide = read_presentation(path).slides[index]
    if not slide.tables:
        return f"slide {title!r} has no table (its text: {list(slide.texts)})"
    wanted = [[_words(c) for c in row] for row in rows]
    found = [_table_rows(t.rows) for t in slide.tables]
    for table in found:
        if len(table) == len(wanted) and all(
            len(a) == len(b) and all(_same_cell(x, y) for x, y in zip(a, b, strict=True))
            for a, b in zip(table, wanted, strict=True)
        ):
            return ""
    return f"the table on slide {title!r} reads {found[0]}, not {wanted}"


def _squashed(text: str) -> str:
    """Text as a PDF's extraction may run it together: no spacing, no thousands
    separators, case folded."""
    return "".join(_PAGE_SEPARATOR.sub("", text).split()).casefold()


def _pdf_images(path: Path) -> list[int]:
    """How many pictures each page of the PDF draws."""
    from pypdf import PdfReader

    return [len(page.images) for page in PdfReader(str(path)).pages]


def pdf_content_problem(path: Path, number: int, texts: list[str], pictures: int = 0) -> str:
    """Page ``number`` (from 1) of the PDF shows every text of ``texts`` (spacing and case
    aside, numbers with or without thousands separators) and draws at least ``pictures``
    pictures."""
    pages = read_pdf(path).pages
    if number > len(pages):
        return f"it has no page {number} (it has {len(pages)})"
    shown = _squashed(pages[number - 1].text)
    for text in texts:
        if _squashed(text) not in shown:
            return f"its page {number} does not show {text!r}"
    if pictures:
        drawn = _pdf_images(path)[number - 1]
        if drawn < pictures:
            return f"its page {number} shows no picture"
    return ""


# ------------------------------------------------------------------ evaluators
@evaluator(governs=_path_keys)
def slide_picture(path: str, title: str, source: str, *, env: DesktopDevice) -> EvalResult:
    """The slide titled ``title`` shows the picture in the file ``source`` (compared by
    its pixels), stored in the presentation, not linked.

    Args:
        path: The presentation (.odp) as the agent sees it.
        title: The slide's title.
        source: The picture file, e.g. "~/Pictures/site-2026.png".
    """
    picture = _file(env, source)
    if picture is None:
        return EvalResult(success=False, message=f"{source} does not exist")
    return _result(
        env, path, picture_problem, f"shows {source} on {title!r}", title, picture, source
    )


@evaluator(governs=_path_keys)
def slide_table(path: str, title: str, rows: list[list[str]], *, env: DesktopDevice) -> EvalResult:
    """The slide titled ``title`` holds a table with these cells (numbers compared as
    numbers, empty rows and columns ignored).

    Args:
        path: The presentation (.odp) as the agent sees it.
        title: The slide's title.
        rows: The table's cell texts, row by row, the header row first.
    """
    return _result(env, path, table_problem, f"has the table on {title!r}", title, rows)


@evaluator(governs=_path_keys)
def pdf_page_content(
    path: str, number: int, texts: list[str], pictures: int = 0, *, env: DesktopDevice
) -> EvalResult:
    """Page ``number`` of the PDF shows these texts and at least ``pictures`` pictures.

    Args:
        path: The PDF as the agent sees it, e.g. "~/Documents/review.pdf".
        number: The page, from 1.
        texts: Texts the page must show (numbers with or without thousands separators).
        pictures: The fewest pictures the page must draw.
    """
    return _result(
        env,
        path,
        pdf_content_problem,
        f"page {number} shows what it should",
        number,
        texts,
        pictures,
    )
