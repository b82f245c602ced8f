"""What the phone and a real Android device have in common: a touch screen read as XML.

:class:`TouchEnvironment` holds the observation bookkeeping (the latest uiautomator dump,
its marks and screenshot) and maps CRAB's Android actions onto a few device primitives
that :class:`~reefbench.envs.phone.PhoneEnvironment` (Chromium) and
:class:`~reefbench.envs.android.AndroidEnvironment` (ADB) implement. Evaluators read any
:class:`UISource`; :class:`StaticScreen` is one made from a recorded dump.
"""

from __future__ import annotations

import io
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Protocol, runtime_checkable

from reefbench.actions.spec import Action
from reefbench.environments.contract import Environment
from reefbench.environments.grounding import Candidate
from reefbench.environments.pointer import PointerKind, png_size
from reefbench.envs.ui.hierarchy import UIHierarchy, UINode, parse_hierarchy
from reefbench.envs.ui.marks import UIMarks, scaled, ui_marks
from reefbench.errors import InvalidAction
from reefbench.perception.marks import MARKS_SENTENCE, PIXELS_SENTENCE, Mark, require_mark

# How the agent addresses elements on a touch screen, which the pixels set rewrites
# (``action_set_descriptions`` of the phone and Android).
MARKS_NOTE = f"{MARKS_SENTENCE} The list gives '[id] class \"label\"' for each element."
PIXELS_NOTE = PIXELS_SENTENCE
TOUCH_DESCRIPTIONS = {"pixels": {MARKS_NOTE: PIXELS_NOTE}}


@runtime_checkable
class UISource(Protocol):
    """Anything evaluators can read a screen from."""

    def ui_hierarchy(self) -> UIHierarchy: ...

    def current_package(self) -> str | None: ...


class StaticScreen:
    """A recorded dump as a :class:`UISource` (offline checks and tests).

    Args:
        xml: The dump's text.
        package: The foreground package if known (else read off the dump).
    """

    def __init__(self, xml: str | bytes, package: str | None = None) -> None:
        self.hierarchy = parse_hierarchy(xml)
        self.package = package

    @classmethod
    def from_file(cls, path: str | Path, package: str | None = None) -> StaticScreen:
        return cls(Path(path).read_bytes(), package)

    def ui_hierarchy(self) -> UIHierarchy:
        return self.hierarchy

    def current_package(self) -> str | None:
        return self.package or self.hierarchy.foreground_package()


@dataclass(frozen=True)
class TouchSnapshot:
    """One observation: the dump, its marks, and the screenshot they were drawn for.

    ``image_scale`` is screenshot pixels per device pixel (the phone takes screenshots in
    CSS pixels while its dump is in device pixels, like a real phone's).
    """

    xml: str
    ui: UIHierarchy
    marks: UIMarks
    png: bytes
    image_scale: float = 1.0

    def marked_png(self, max_width: int | None = None) -> bytes:
        """The screenshot with the numbered boxes drawn on it."""
        from PIL import Image

        from reefbench.perception.image import encode_png
        from reefbench.perception.marks import draw_marks

        with Image.open(io.BytesIO(self.png)) as image:
            drawn = draw_marks(image, scaled(self.marks.marks, self.image_scale))
        return encode_png(drawn, max_width=max_width)

    def plain_png(self, max_width: int | None = None) -> bytes:
        """The screenshot as it is (no boxes), at most ``max_width`` wide."""
        from PIL import Image

        from reefbench.perception.image import encode_png

        with Image.open(io.BytesIO(self.png)) as image:
            return encode_png(image, max_width=max_width)


class TouchEnvironment(Environment, ABC):
    """Base of the phone and Android environments (CRAB's Android action set).

    Subclasses implement the abstract device primitives below; every primitive returns only
    once the screen has settled. The action space is :data:`~reefbench.envs.ui.actions.
    TOUCH_ACTIONS` and the observations :func:`~reefbench.envs.ui.actions.touch_observations`
    (those actions name this class, so subclasses, not this module, put them together).
    """

    def __init__(
        self,
        name: str,
        description: str,
        *,
        action_space: Iterable[Action],
        observation_space: Iterable[Action],
        screenshot_width: int | None = None,
        lazy_reset: bool = False,
    ) -> None:
        super().__init__(
            name,
            description,
            action_space=action_space,
            observation_space=observation_space,
            lazy_reset=lazy_reset,
        )
        self.screenshot_width = screenshot_width
        self.snapshot: TouchSnapshot | None = None

    # ------------------------------------------------------- device primitives
    @abstractmethod
    def screen_size(self) -> tuple[int, int]:
        """Display size in device pixels (the coordinate space of the dump)."""

    @abstractmethod
    def dump_xml(self) -> str:
        """The current window hierarchy as uiautomator XML."""

    @abstractmethod
    def capture_png(self) -> tuple[bytes, float]:
        """A screenshot (PNG) and its pixels per device pixel."""

    @abstractmethod
    def tap_at(self, x: int, y: int) -> None:
        """Tap the point (device pixels)."""

    @abstractmethod
    def long_tap_at(self, x: int, y: int) -> None:
        """Touch and hold the point (device pixels)."""

    @abstractmethod
    def swipe_at(self, x1: int, y1: int, x2: int, y2: int) -> None:
        """Swipe from one point to another (device pixels)."""

    @abstractmethod
    def input_text(self, text: str) -> None:
        """Type ``text`` into the focused field, exactly as given (newlines press Enter)."""

    @abstractmethod
    def clear_field(self) -> None:
        """Delete all the text of the focused field (typing only ever adds to a field)."""

    @abstractmethod
    def press_key(self, key: str) -> None:
        """``"home"`` or ``"back"``."""

    @abstractmethod
    def open_drawer(self) -> None:
        """Go home and show the list of all apps."""

    @abstractmethod
    def current_package(self) -> str | None:
        """The package of the app in front."""

    # ------------------------------------------------------------ observation
    def ui_hierarchy(self) -> UIHierarchy:
        """A fresh dump, parsed (evaluators call this; it does not change the marks)."""
        return parse_hierarchy(self.dump_xml())

    def observe_now(self) -> TouchSnapshot:
        """Dump, number and photograph the screen; the marks become the current ids."""
        xml = self.dump_xml()
        ui = parse_hierarchy(xml)
        png, scale = self.capture_png()
        self.snapshot = TouchSnapshot(xml, ui, ui_marks(ui, self.screen_size()), png, scale)
        return self.snapshot

    def observe(self) -> dict[str, object]:
        self.observe_now()
        return super().observe()

    # Grounding (reefbench.environments.grounding.Groundable): the a11y set's ``tap_on`` and the
    # oracle find elements by label or resource id through these.
    name_addressed: ClassVar[Mapping[str, str]] = {"tap_on": "tap"}
    pointer_kind: ClassVar[PointerKind | None] = "touch"
    # ... and, under the pixels set (no element actions), at the element's centre.
    point_addressed: ClassVar[Mapping[str, str]] = {"tap_on": "tap_at"}

    def element_point(self, elem: int) -> tuple[int, int]:
        """The centre of element ``elem`` of the latest observation, in the pixels of the
        screenshot the agent sees (what ``tap_at`` takes): the inverse of
        :meth:`from_screenshot`, which maps the point back into the element."""
        mark, _ = self.target(elem)
        snapshot = self.snapshot or self.observe_now()
        width, height = png_size(snapshot.png)
        shown = min(1.0, self.screenshot_width / width) if self.screenshot_width else 1.0
        shown_w, shown_h = max(1, round(width * shown)), max(1, round(height * shown))
        per_device = shown * snapshot.image_scale  # screenshot pixels per device pixel
        x, y = mark.center
        return (
            min(max(int(x * per_device), 0), shown_w - 1),
            min(max(int(y * per_device), 0), shown_h - 1),
        )

    def element_candidates(self, fresh: bool) -> list[Candidate]:
        """The numbered elements of the latest observation (of a new one if ``fresh``),
        with their resource ids."""
        snapshot = self.snapshot if self.snapshot and not fresh else self.observe_now()
        pairs = zip(snapshot.marks.marks.marks, snapshot.marks.nodes, strict=True)
        return [Candidate(m.id, m.name, m.role, node.id_name) for m, node in pairs]

    def from_screenshot(self, x: int, y: int, *, clamp: bool = False) -> tuple[int, int]:
        """A point of the screenshot the agent sees (the latest observation's, scaled to
        ``screenshot_width``) in device pixels.

        Args:
            clamp: Move a point outside the screenshot onto its edge (a swipe's end)
                instead of refusing it.

        Raises:
            InvalidAction: the point is outside that screenshot (and not ``clamp``).
        """
        snapshot = self.snapshot or self.observe_now()
        width, height = png_size(snapshot.png)
        shown = min(1.0, self.screenshot_width / width) if self.screenshot_width else 1.0
        shown_w, shown_h = max(1, round(width * shown)), max(1, round(height * shown))
        if clamp:
            x, y = min(max(x, 0), shown_w - 1), min(max(y, 0), shown_h - 1)
        if not (0 <= x < shown_w and 0 <= y < shown_h):
            raise InvalidAction(f"({x}, {y}) is outside the {shown_w}x{shown_h} phone screenshot")
        per_device = shown * snapshot.image_scale  # screenshot pixels per device pixel
        screen_w, screen_h = self.screen_size()
        return (
            min(int((x + 0.5) / per_device), screen_w - 1),
            min(int((y + 0.5) / per_device), screen_h - 1),
        )

    def element(self, elem: int) -> UINode:
        """The node numbered ``elem`` in the latest observation (see :meth:`target`)."""
        return self.target(elem)[1]

    def target(self, elem: int) -> tuple[Mark, UINode]:
        """The mark numbered ``elem`` in the latest observation and the node behind it.

        Raises:
            InvalidAction: no observation yet, or no such number in it.
        """
        mark = require_mark(self.snapshot.marks.marks if self.snapshot else None, elem)
        node = self.snapshot.marks.node(elem) if self.snapshot else None
        if node is None:  # every numbered mark is built from a node; this is a bug if hit
            raise InvalidAction(f"element {elem} has no node in the latest observation")
        return mark, node

    def forget_observation(self) -> None:
        self.snapshot = None
