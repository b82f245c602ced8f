"""Screenshot encoding and image matching (Pillow, OpenCV, numpy; imported lazily).

Template matching answers "is this icon/picture on screen, and where"; similarity answers
"does this screen/file look like that one". Both work on grayscale images, so colour-depth
and alpha differences between a PNG on disk and a live screenshot do not matter.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reefbench.errors import ActionFailed

if TYPE_CHECKING:
    from PIL import Image as PILImage

Box = tuple[int, int, int, int]


def encode_png(
    image: PILImage.Image, *, max_width: int | None = None, compress_level: int = 1
) -> bytes:
    """PNG bytes of ``image``, downscaled to ``max_width`` (keeping the aspect) if wider.

    Level 1 compresses a 1280x800 desktop about as well as level 6 at a fraction of the
    time; screenshots are sent once and never archived at that size.
    """
    from PIL import Image

    if max_width is not None and image.width > max_width:
        height = round(image.height * max_width / image.width)
        image = image.resize((max_width, height), Image.Resampling.BILINEAR)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=compress_level)
    return buffer.getvalue()


def differs_only_inside(
    before: PILImage.Image, after: PILImage.Image, boxes: Sequence[Box]
) -> bool:
    """Whether two screenshots of one screen differ, and every differing pixel lies inside
    one of ``boxes`` (``x, y, width, height`` in the screenshots' pixels).

    A device whose clock ticks redraws it with no action of anyone's: a new screenshot
    that differs from the last only inside the clock's box shows nothing the agent did
    (the desktop's panel clock, the phone's status bar)."""
    from PIL import ImageChops

    if before.size != after.size:
        return False
    if before.mode != after.mode:
        before, after = before.convert("RGB"), after.convert("RGB")
    changed = ImageChops.difference(before, after).getbbox()
    if changed is None:
        return False
    left, top, right, bottom = changed
    return any(
        x <= left and y <= top and right <= x + w and bottom <= y + h for x, y, w, h in boxes
    )


def _gray(image: Any) -> Any:
    """A uint8 grayscale numpy array from a PIL image, numpy array, PNG bytes or path."""
    import cv2
    import numpy as np

    if isinstance(image, bytes | bytearray):
        array = cv2.imdecode(np.frombuffer(image, np.uint8), cv2.IMREAD_GRAYSCALE)
        if array is None:
            raise ActionFailed("the bytes are not an image OpenCV can decode")
        return array
    if isinstance(image, str):
        array = cv2.imread(image, cv2.IMREAD_GRAYSCALE)
        if array is None:
            raise ActionFailed(f"cannot read an image from {image}")
        return array
    if hasattr(image, "convert"):  # PIL
        return np.asarray(image.convert("L"))
    array = np.asarray(image)
    if array.ndim == 3:
        code = cv2.COLOR_BGRA2GRAY if array.shape[2] == 4 else cv2.COLOR_BGR2GRAY
        array = cv2.cvtColor(array, code)
    return array.astype(np.uint8)


@dataclass(frozen=True)
class TemplateMatch:
    """Best match of a template: normalised correlation score in [-1, 1] and where."""

    score: float
    box: Box


def find_template(screen: Any, template: Any) -> TemplateMatch | None:
    """Where ``template`` best matches inside ``screen`` (``None`` if it is larger)."""
    import cv2

    haystack, needle = _gray(screen), _gray(template)
    if needle.shape[0] > haystack.shape[0] or needle.shape[1] > haystack.shape[1]:
        return None
    result = cv2.matchTemplate(haystack, needle, cv2.TM_CCOEFF_NORMED)
    _, score, _, (x, y) = cv2.minMaxLoc(result)
    if score != score:  # NaN on flat images
        score = 0.0
    return TemplateMatch(float(score), (int(x), int(y), needle.shape[1], needle.shape[0]))


def similarity(first: Any, second: Any, size: int = 256) -> float:
    """How alike two images look, in [0, 1]: correlation of their grayscale thumbnails.

    Both are resized to ``size`` pixels wide at the first image's aspect, so a scaled copy
    of a picture still scores close to 1 and an unrelated one close to 0 (negative
    correlations are clipped to 0).
    """
    import cv2
    import numpy as np

    a, b = _gray(first), _gray(second)
    height = max(1, round(a.shape[0] * size / a.shape[1]))
    a = cv2.resize(a, (size, height), interpolation=cv2.INTER_AREA).astype(np.float32)
    b = cv2.resize(b, (size, height), interpolation=cv2.INTER_AREA).astype(np.float32)
    mean_a, mean_b = float(a.mean()), float(b.mean())
    a -= mean_a
    b -= mean_b
    denominator = float(np.sqrt((a * a).sum() * (b * b).sum()))
    if denominator == 0.0:
        # A flat image has no pattern to correlate: alike only if both are the same flat.
        flat = (a * a).sum() == 0 and (b * b).sum() == 0
        return 1.0 if flat and abs(mean_a - mean_b) < 1.0 else 0.0
    return max(0.0, float((a * b).sum() / denominator))


def feature_similarity(first: Any, second: Any, ratio: float = 0.75) -> float:
    """Share of ORB keypoints of ``first`` with a good match in ``second`` (Lowe's ratio).

    Robust to shifts and crops where :func:`similarity` is not; 0.0 when either image has
    no features.
    """
    import cv2

    orb = cv2.ORB.create(nfeatures=500)
    a, b = _gray(first), _gray(second)
    kp_a, des_a = orb.detectAndCompute(a, None)
    kp_b, des_b = orb.detectAndCompute(b, None)
    if des_a is None or des_b is None or len(kp_a) == 0 or len(kp_b) < 2:
        return 0.0
    matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
    good = 0
    for pair in matcher.knnMatch(des_a, des_b, k=2):
        if len(pair) == 2 and pair[0].distance < ratio * pair[1].distance:
            good += 1
    return good / len(kp_a)
