"""Screenshots for models: the right MIME type, and optional downscaling.

Environments hand screenshots over as encoded bytes. The MIME type is read from the
bytes' signature rather than assumed, because providers reject (or misread) an image
whose declared type is wrong. Downscaling needs Pillow, imported only when asked for.
"""

from __future__ import annotations

import io

from reefbench.errors import ConfigError

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


def image_mime(data: bytes) -> str | None:
    """``image/png``, ``image/jpeg``, ``image/gif`` or ``image/webp`` by magic bytes."""
    for signature, mime in _SIGNATURES:
        if data.startswith(signature):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def downscale(data: bytes, mime: str, max_side: int) -> tuple[bytes, str]:
    """Shrink the image so its longer side is at most ``max_side`` pixels.

    Returns the new bytes and their MIME type (PNG, JPEG and WebP keep their format,
    others become PNG). Images already small enough are returned unchanged.
    """
    try:
        from PIL import Image
    except ImportError:
        raise ConfigError(
            "downscaling screenshots needs Pillow: pip install 'reefbench[agents]' "
            "(or leave max_image_side unset)"
        ) from None
    with Image.open(io.BytesIO(data)) as image:
        width, height = image.size
        if max(width, height) <= max_side:
            return data, mime
        scale = max_side / max(width, height)
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        resized = image.resize(size, Image.Resampling.LANCZOS)
        out = io.BytesIO()
        formats = {"image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WEBP"}
        fmt = formats.get(mime, "PNG")
        if fmt == "JPEG" and resized.mode not in ("RGB", "L"):
            resized = resized.convert("RGB")
        resized.save(out, format=fmt)
        return out.getvalue(), mime if mime in formats else "image/png"


# A pixel counts as changed when its grey level moves by more than this (PNG screenshots of
# the same frame are identical; anti-aliasing noise stays well below it).
_CHANGED_LEVEL = 24
_CHANGED_TABLE = [0] * (_CHANGED_LEVEL + 1) + [255] * (255 - _CHANGED_LEVEL)
# A change no wider than this is a text caret blinking (1-2 px), not new content.
CARET_WIDTH = 3


def screens_differ(before: bytes, after: bytes) -> bool:
    """Whether two screenshots show different content, cheaply: the grey-level difference
    of the two frames, thresholded; a change only a caret's width wide does not count, so
    a blinking cursor on a device nobody touched does not make it "changed"."""
    if before == after:
        return False
    try:
        from PIL import Image, ImageChops
    except ImportError:  # without Pillow, any byte difference counts
        return True
    with Image.open(io.BytesIO(before)) as old, Image.open(io.BytesIO(after)) as new:
        if old.size != new.size:
            return True
        diff = ImageChops.difference(old.convert("L"), new.convert("L"))
    box = diff.point(_CHANGED_TABLE).getbbox()
    return box is not None and box[2] - box[0] > CARET_WIDTH
