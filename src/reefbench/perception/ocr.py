"""OCR with the tesseract binary: words and their boxes from TSV output.

Tesseract costs 0.3–0.9 s on a full 1280x800 screen, so callers run it on demand (when a
surface has no accessibility tree, or an evaluator asks) and on crops where they can.
The image goes in on stdin as PNG bytes and the TSV comes back on stdout: no temp files,
no shell.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

from reefbench.errors import EnvironmentFailure

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class OcrWord:
    """One recognised word: text, box ``(x, y, w, h)`` in image pixels, confidence 0–100."""

    text: str
    box: Box
    confidence: float
    line: tuple[int, int, int]  # (block, paragraph, line) as tesseract numbers them


@dataclass(frozen=True, slots=True)
class OcrLine:
    """Adjacent words of one text line, merged (a label, a menu entry, a sentence)."""

    text: str
    box: Box
    confidence: float


def parse_tsv(
    tsv: str, min_confidence: float = 30.0, offset: tuple[int, int] = (0, 0)
) -> list[OcrWord]:
    """Words from tesseract's TSV (level 5 rows), skipping blanks and low confidence."""
    words = []
    lines = tsv.splitlines()
    for row in lines[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5":
            continue
        text = cols[11].strip()
        try:
            conf = float(cols[10])
            left, top, width, height = (int(c) for c in cols[6:10])
        except ValueError:
            continue
        if not text or conf < min_confidence:
            continue
        words.append(
            OcrWord(
                text=text,
                box=(left + offset[0], top + offset[1], width, height),
                confidence=conf,
                line=(int(cols[2]), int(cols[3]), int(cols[4])),
            )
        )
    return words


def group_lines(words: list[OcrWord], gap_factor: float = 1.5) -> list[OcrLine]:
    """Merge the words of each text line, splitting where the gap exceeds
    ``gap_factor`` × the line height (two UI labels side by side stay apart)."""
    out: list[OcrLine] = []
    current: list[OcrWord] = []

    def flush() -> None:
        if not current:
            return
        x0 = min(w.box[0] for w in current)
        y0 = min(w.box[1] for w in current)
        x1 = max(w.box[0] + w.box[2] for w in current)
        y1 = max(w.box[1] + w.box[3] for w in current)
        out.append(
            OcrLine(
                text=" ".join(w.text for w in current),
                box=(x0, y0, x1 - x0, y1 - y0),
                confidence=min(w.confidence for w in current),
            )
        )
        current.clear()

    for word in words:
        if current:
            prev = current[-1]
            gap = word.box[0] - (prev.box[0] + prev.box[2])
            height = max(prev.box[3], word.box[3])
            if word.line != prev.line or gap > gap_factor * height:
                flush()
        current.append(word)
    flush()
    return out


def ocr_png(
    png: bytes,
    *,
    language: str = "eng",
    psm: int = 11,
    offset: tuple[int, int] = (0, 0),
    timeout: float = 30.0,
) -> list[OcrWord]:
    """Run tesseract on PNG bytes and return its words.

    ``psm`` 11 ("sparse text") suits screens: scattered labels rather than a page of prose.
    ``offset`` shifts boxes when ``png`` is a crop of a larger screen.
    """
    exe = shutil.which("tesseract")
    if exe is None:
        raise EnvironmentFailure("tesseract is not installed: apt-get install tesseract-ocr")
    try:
        done = subprocess.run(
            [exe, "stdin", "stdout", "-l", language, "--psm", str(psm), "tsv"],
            input=png,
            capture_output=True,
            timeout=timeout,
            check=False,
            env={"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"},
        )
    except subprocess.TimeoutExpired:
        raise EnvironmentFailure(f"tesseract took longer than {timeout:g} s") from None
    if done.returncode != 0:
        raise EnvironmentFailure(
            f"tesseract failed: {done.stderr.decode(errors='replace').strip()[:300]}"
        )
    return parse_tsv(done.stdout.decode("utf-8", "replace"), offset=offset)


def ocr_image(
    image: Any, *, scale: float = 2.0, offset: tuple[int, int] = (0, 0), psm: int = 11
) -> list[OcrWord]:
    """OCR a PIL image; boxes come back in the image's own pixels (plus ``offset``).

    Screen text is small (10–12 px) and tesseract reads it far better at twice the size,
    so the image is upscaled in grayscale first and the boxes scaled back.
    """
    from PIL import Image

    from reefbench.perception.image import encode_png

    gray = image.convert("L")
    if scale != 1.0:
        size = (round(gray.width * scale), round(gray.height * scale))
        gray = gray.resize(size, Image.Resampling.LANCZOS)
    words = ocr_png(encode_png(gray), psm=psm)
    out = []
    for word in words:
        x, y, w, h = word.box
        box = (
            round(x / scale) + offset[0],
            round(y / scale) + offset[1],
            max(1, round(w / scale)),
            max(1, round(h / scale)),
        )
        out.append(OcrWord(word.text, box, word.confidence, word.line))
    return out
