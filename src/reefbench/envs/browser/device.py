"""``BrowserDevice``: a desktop-sized Chromium tab set driven through Playwright.

One Chromium process per environment, started by :meth:`start`; :meth:`reset` replaces
the browser context (cookies, storage, tabs and history gone in a few tens of ms) and
signs in to the local services again when the environment has them; :meth:`stop` leaves
no process behind. Every Playwright call happens inside the environment's own methods,
so an environment lives in the thread that started it (the runner's worker thread).

The device's mechanics; :class:`~reefbench.envs.browser.environment.BrowserEnvironment` adds
the actions of :mod:`.actions` (which name this type) as its action space.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from reefbench.actions.spec import Action
from reefbench.environments.contract import Environment
from reefbench.environments.grounding import Candidate
from reefbench.environments.pointer import PointerKind
from reefbench.envs.accounts import Account
from reefbench.envs.browser.page_marks import page_marks
from reefbench.envs.browser.settle import (
    INIT_SCRIPT,
    TAKE_DOWNLOAD_CLICKS,
    RequestTracker,
    settle,
)
from reefbench.envs.chromium import Chromium, close_context
from reefbench.errors import ActionFailed, EnvironmentFailure, InvalidAction
from reefbench.perception.marks import (
    FIELDS_SENTENCE,
    MARKS_SENTENCE,
    PIXELS_SENTENCE,
    Mark,
    MarkSet,
    require_mark,
)

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Download, FileChooser, Page

    from reefbench.envs.filetransfer import ComputerFiles


# How the agent addresses elements, which the pixels set rewrites (action_set_descriptions).
MARKS_NOTE = (
    f"{MARKS_SENTENCE} {FIELDS_SENTENCE} The list gives '[id] role \"name\"' for each "
    "link, button and field."
)
PIXELS_NOTE = f"{PIXELS_SENTENCE} It also lists the open tabs."
# What each action set rewrites in the description (Environment.action_set_descriptions).
SET_DESCRIPTIONS = {"pixels": {MARKS_NOTE: PIXELS_NOTE}}
DESCRIPTION = "A web browser (Chromium, {width}x{height}). " + MARKS_NOTE
SERVICES_NOTE = (
    " The user's cloud account (mail, calendar, contacts, tasks, notes, files, messages, "
    "maps, clock) is open at {url} and already signed in."
)
COMPUTER_NOTE = " It is the computer's browser: {where}."


@dataclass(frozen=True)
class PageSnapshot:
    """One observation of the current tab."""

    png: bytes
    marks: MarkSet
    url: str
    title: str

    def marked_png(self) -> bytes:
        import io

        from PIL import Image

        from reefbench.perception.image import encode_png
        from reefbench.perception.marks import draw_marks

        with Image.open(io.BytesIO(self.png)) as image:
            return encode_png(draw_marks(image, self.marks))


class BrowserDevice(Environment):
    """Chromium with tabs, Set-of-Marks and an accessibility tree.

    Args:
        name: Environment name in tasks.
        services: The local services; the browser signs in to them and opens them.
        start_url: Page opened at every reset (default: the services' home, or blank).
        width: Viewport width in CSS pixels.
        height: Viewport height.
        observe_tree: Also give the agent the accessibility tree (ARIA snapshot) each step.
        quiet: Seconds the DOM must stay unchanged before an action counts as done.
        settle_timeout: Deadline of that wait.
        chromium_args: Extra Chromium switches.
        lazy_reset: Skip resets while nothing acted on the browser (see
            :class:`~reefbench.environments.contract.Environment`).
        computer: The computer whose browser this is (its desktop, see
            :mod:`reefbench.envs.filetransfer`): finished downloads are saved there and
            file choosers open its files; without it downloads are discarded and a file
            chooser cannot be answered.
    """

    # Observations added by ``observe_tree=True`` (the subclass with actions names them).
    tree_observations: ClassVar[Sequence[Action]] = ()
    # The client the account attributes this device's changes to.
    account_client: ClassVar[str] = "browser"

    def __init__(
        self,
        name: str = "browser",
        *,
        services: Account | None = None,
        start_url: str | None = None,
        width: int = 1280,
        height: int = 800,
        observe_tree: bool = False,
        quiet: float = 0.05,
        settle_timeout: float = 5.0,
        chromium_args: tuple[str, ...] = (),
        lazy_reset: bool = False,
        computer: ComputerFiles | None = None,
    ) -> None:
        description = DESCRIPTION.format(width=width, height=height)
        if computer is not None:
            description += COMPUTER_NOTE.format(where=computer.files_description)
        super().__init__(
            name,
            description,
            observation_space=(
                [*self.default_observation_space, *self.tree_observations] if observe_tree else None
            ),
            lazy_reset=lazy_reset,
        )
        self._base_description = self.description
        self.services = services
        self.start_url = start_url
        self.viewport = {"width": width, "height": height}
        self.quiet = quiet
        self.settle_timeout = settle_timeout
        self.chromium = Chromium(chromium_args)
        self.context: BrowserContext | None = None
        self.tracker: RequestTracker | None = None
        self.snapshot: PageSnapshot | None = None
        self._page: Page | None = None
        self.computer = computer
        self._pending_downloads: list[Download] = []
        self.file_chooser: FileChooser | None = None  # opened by the page, not answered yet
        self._awaited_downloads = 0  # download links clicked, not yet reported
        self.saved_downloads: list[str] = []  # where this episode's downloads went
        self._drawn_now: str | None = None  # the account's clock when its pages were drawn

    # ------------------------------------------------------------- lifecycle
    def on_start(self) -> None:
        if self.services is not None:
            self.services.start()
            self.description = self._base_description + SERVICES_NOTE.format(url=self.services.url)
        self.chromium.start()
        try:
            self._fresh_context()
        except BaseException:
            self.on_stop()
            raise
        if self.services is not None:
            self.services.follow_clock(self._clock_moved)

    def on_reset(self) -> None:
        self._fresh_context()

    def _clock_moved(self, now: str) -> None:
        """Reload the account's pages open in the tabs: they were drawn with the clock
        before a setup loaded a world or fixed it, and must show the task's world time."""
        if self.services is None or self.context is None or now == self._drawn_now:
            return
        self._drawn_now = now
        origin = self.services.url
        for tab in self.tabs:
            if tab.url.startswith(origin):
                # A tab that cannot reload keeps what it shows; the browser's own health
                # check, not the account's clock, decides whether the device is broken.
                with contextlib.suppress(Exception):
                    tab.reload(wait_until="load", timeout=self.settle_timeout * 3000)
        if self.tabs:
            self.settle()

    def on_stop(self) -> None:
        self._close_context()
        self.chromium.stop()

    def on_health(self) -> bool:
        return self.chromium.alive() and self.context is not None

    def pids(self) -> list[int]:
        return self.chromium.pids()

    def memory_bytes(self) -> int:
        return self.chromium.memory_bytes()

    def _close_context(self) -> None:
        context, self.context, self._page, self.tracker = self.context, None, None, None
        self.snapshot = None
        self._pending_downloads.clear()
        self._awaited_downloads = 0
        self.saved_downloads.clear()
        self.file_chooser = None
        close_context(context)

    def _fresh_context(self) -> None:
        self._close_context()
        # Signed in as this device, and recognised as it when it signs in again: the
        # account attributes every change to the client that made it.
        context = self.chromium.new_context(
            f"browser '{self.name}'",
            init_scripts=(INIT_SCRIPT,),
            account=self.services,
            client=self.account_client,
            viewport=self.viewport,
        )
        self.context = context
        self.tracker = RequestTracker(context)
        context.on("page", self._adopt)
        page = context.new_page()
        self._page = page
        url = self.start_url or (self.services.url + "/" if self.services else "about:blank")
        self._drawn_now = self.services.settings().get("now") if self.services else None
        self.goto(url)

    def _adopt(self, page: Page) -> None:
        # A link with target=_blank or window.open: like a real browser, show the new tab.
        self._page = page
        if self.computer is not None:
            page.on("download", self._download_started)
            # A listener makes Playwright take over the page's file choosers: none opens
            # on screen; choose_file answers the one held here.
            page.on("filechooser", self._file_chooser_opened)

    def _download_started(self, download: Download) -> None:
        self._pending_downloads.append(download)

    def _file_chooser_opened(self, chooser: FileChooser) -> None:
        self.file_chooser = chooser

    def _deliver_downloads(self) -> None:
        """Hand every download that started to the computer once it has finished
        (Playwright keeps it until the context closes). Runs where the browser settles,
        outside Playwright's event callbacks, so waiting for a download is allowed.

        The browser reports a download a moment after the click on its link, sometimes
        after the page has gone quiet; the page counts clicks on download links
        (``settle_init.js``), and this waits, with a deadline, until as many downloads
        as clicks have been reported."""
        if self.computer is None or not self.tabs:
            return
        # A page navigating away cannot be asked; its clicks were not downloads.
        with contextlib.suppress(Exception):
            self._awaited_downloads += int(self.page.evaluate(TAKE_DOWNLOAD_CLICKS))
        deadline = time.monotonic() + self.settle_timeout
        while len(self._pending_downloads) < self._awaited_downloads:
            if time.monotonic() >= deadline:
                break  # a link the page cancelled, or a download the browser refused
            self.page.wait_for_timeout(10)  # lets Playwright deliver the event
        self._awaited_downloads = 0
        while self._pending_downloads:
            download = self._pending_downloads.pop(0)
            try:
                source = download.path()
            except Exception as exc:  # cancelled, or the context went away
                raise ActionFailed(
                    f"the download of {download.suggested_filename!r} failed: "
                    f"{str(exc).splitlines()[0]}"
                ) from None
            where = self.computer.receive_download(download.suggested_filename, Path(source))
            self.saved_downloads.append(where)

    # ---------------------------------------------------------------- pages
    @property
    def page(self) -> Page:
        if self._page is None or self._page.is_closed():
            pages = self.context.pages if self.context else []
            if not pages:
                raise EnvironmentFailure(f"browser '{self.name}' has no open tab")
            self._page = pages[-1]
        return self._page

    @property
    def tabs(self) -> list[Page]:
        return list(self.context.pages) if self.context else []

    def switch_to(self, index: int) -> Page:
        tabs = self.tabs
        if not 0 <= index < len(tabs):
            raise InvalidAction(f"there is no tab {index}; tabs are numbered 0..{len(tabs) - 1}")
        self._page = tabs[index]
        self._page.bring_to_front()
        return self._page

    def new_tab(self, url: str = "") -> Page:
        assert self.context is not None
        page = self.context.new_page()
        self._page = page
        if url:
            self.goto(url)
        return page

    def settle(self) -> bool:
        """Wait until the current tab has settled (see :mod:`.settle`) and any download it
        started has been saved."""
        settled = settle(self.page, self.tracker, quiet=self.quiet, timeout=self.settle_timeout)
        self._deliver_downloads()
        return settled

    def on_settle_view(self, timeout: float) -> bool:
        """The tab has settled (requests, navigations, a quiet DOM) before anything reads
        it; actions already wait for that, so this is usually one probe."""
        if not self.tabs:  # every tab closed: nothing to wait for
            return True
        settled = settle(self.page, self.tracker, quiet=self.quiet, timeout=timeout)
        self._deliver_downloads()
        return settled

    def goto(self, url: str) -> None:
        try:
            self.page.goto(url, wait_until="load", timeout=self.settle_timeout * 3000)
        except Exception as exc:
            raise ActionFailed(f"could not open {url}: {str(exc).splitlines()[0]}") from None
        self.settle()

    # ---------------------------------------------------------- observation
    def observe_now(self) -> PageSnapshot:
        page = self.page
        marks = page_marks(page)
        png = page.screenshot(type="png", animations="disabled", caret="initial")
        self.snapshot = PageSnapshot(png, marks, page.url, page.title())
        return self.snapshot

    def observe(self) -> dict[str, Any]:
        self.observe_now()
        return super().observe()

    # Grounding (reefbench.environments.grounding.Groundable): the a11y set's ``click_on`` and
    # the oracle find elements by accessible name through these.
    name_addressed: ClassVar[Mapping[str, str]] = {"click_on": "click"}
    pointer_kind: ClassVar[PointerKind | None] = "browser"
    # ... and, under the pixels set (no element actions), at the element's centre.
    point_addressed: ClassVar[Mapping[str, str]] = {"click_on": "click_at"}

    def element_point(self, elem: int) -> tuple[int, int]:
        """The centre of element ``elem`` of the latest observation, in screenshot pixels
        (the viewport's CSS pixels, which ``click_at`` takes)."""
        x, y = self.mark(elem).center
        width, height = self.viewport["width"], self.viewport["height"]
        return min(max(round(x), 0), width - 1), min(max(round(y), 0), height - 1)

    def element_candidates(self, fresh: bool) -> list[Candidate]:
        """The numbered elements of the latest observation (of a new one if ``fresh``)."""
        snapshot = self.snapshot if self.snapshot and not fresh else self.observe_now()
        return [Candidate(m.id, m.name, m.role) for m in snapshot.marks.marks]

    def mark(self, elem: int) -> Mark:
        """The element numbered ``elem`` in the latest observation.

        Raises:
            InvalidAction: no observation yet, or no such number in it.
        """
        return require_mark(self.snapshot.marks if self.snapshot else None, elem)

    def accessibility_tree(self) -> str:
        """The current tab's accessibility tree as an ARIA snapshot (YAML-like text)."""
        return self.page.locator(":root").aria_snapshot()

    def tabs_text(self) -> str:
        current = self.page
        lines = []
        for index, tab in enumerate(self.tabs):
            here = " (current)" if tab == current else ""
            lines.append(f"tab {index}{here}: {tab.title() or '(untitled)'} - {tab.url}")
        if self.file_chooser is not None and self.file_chooser.page == current:
            many = " (one or more)" if self.file_chooser.is_multiple() else ""
            lines.append(
                f"A file chooser is open: pick the computer's file{many} with choose_file."
            )
        return "\n".join(lines)

    def text_content(self) -> str:
        """All text of the current tab (for evaluators)."""
        return str(self.page.evaluate("() => document.body ? document.body.innerText : ''"))
