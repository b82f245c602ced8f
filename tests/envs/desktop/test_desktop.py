"""Integration tests on a real desktop: Xvfb, bubblewrap, openbox, GTK apps, AT-SPI.

One instance serves the module (start-up is paid once); tests that need a fresh state
reset it first. A second instance is started for the side-by-side and leak tests.
"""

from __future__ import annotations

import http.server
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from reefbench.actions.spec import ActionCall
from reefbench.environments.grounding import element_call
from reefbench.envs.desktop import DesktopEnvironment
from reefbench.envs.desktop import evaluators as ev
from reefbench.envs.desktop import setup as st
from reefbench.errors import ActionFailed, InvalidAction

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "rofi"))
        or not Path("/usr/bin/python3").exists(),
        reason="needs Xvfb, bubblewrap, xdotool, openbox, rofi and Debian's python3",
    ),
]

SECRET = "sk-reef-test-secret-4f1c9a"
TOKEN = "relay-token-7d2e"


def _wait_until(condition, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            return value
        time.sleep(0.05)


class _Handler(http.server.BaseHTTPRequestHandler):
    body = b""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: object) -> None:
        pass


def _server(body: bytes) -> http.server.ThreadingHTTPServer:
    handler = type("H", (_Handler,), {"body": body})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[int, int]]:
    allowed, other = _server(TOKEN.encode()), _server(b"not for the sandbox")
    yield allowed.server_address[1], other.server_address[1]
    for server in (allowed, other):
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def desk(servers: tuple[int, int]) -> Iterator[DesktopEnvironment]:
    previous = os.environ.get("OPENAI_API_KEY")
    os.environ["OPENAI_API_KEY"] = SECRET  # a harness secret that must not leak inside
    env = DesktopEnvironment(ports=[servers[0]])
    try:
        env.start()
        yield env
    finally:
        env.stop()
        if previous is None:
            os.environ.pop("OPENAI_API_KEY", None)
        else:
            os.environ["OPENAI_API_KEY"] = previous


@pytest.fixture
def terminal(desk: DesktopEnvironment) -> DesktopEnvironment:
    """A freshly reset desktop with the terminal opened through search_app."""
    desk.reset()
    desk.step("search_app", {"name": "terminal"})
    return desk


def _terminal_text(desk: DesktopEnvironment) -> str:
    return "\n".join(n.text or "" for w in desk.windows() for n in w.nodes if n.role == "terminal")


def _marker_processes(marker: str) -> list[int]:
    """Host pids whose command line or environment mentions ``marker``."""
    found = []
    needle = marker.encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        for part in ("cmdline", "environ"):
            try:
                with open(f"/proc/{entry}/{part}", "rb") as f:
                    if needle in f.read():
                        found.append(int(entry))
                        break
            except OSError:
                continue
    return found


# ----------------------------------------------------------------- the tests
def test_search_app_opens_the_terminal(terminal: DesktopEnvironment) -> None:
    assert ev.focused_window(process="xfce4-terminal").evaluate(terminal).success
    assert ev.process_running(name="xfce4-terminal").evaluate(terminal).success
    assert ev.app_opened(app="terminal").evaluate(terminal).success
    assert not ev.app_opened(app="browser").evaluate(terminal).success
    assert "terminal" in terminal.observe()["elements"]


def test_typed_command_creates_a_file(terminal: DesktopEnvironment) -> None:
    check = ev.file_content_equals(path="~/hello.txt", content="hello desktop")
    assert not check.evaluate(terminal).success
    terminal.step("write_text", {"text": "echo hello desktop > ~/hello.txt"})
    terminal.step("press", {"key": "enter"})
    assert _wait_until(lambda: check.evaluate(terminal).success)
    assert ev.typed_text(text="hello desktop").evaluate(terminal).success
    assert ev.file_matches(path="/home/user/hello.txt", pattern=r"^hello \w+$").evaluate(terminal)


def test_harness_secrets_and_files_are_invisible_inside(terminal: DesktopEnvironment) -> None:
    assert os.environ["OPENAI_API_KEY"] == SECRET
    terminal.step("write_text", {"text": "env > ~/env.txt; ls / /work /root > ~/ls.txt 2>&1\n"})
    env_file = terminal.session.home / "env.txt"
    assert _wait_until(lambda: env_file.exists() and "HOME=" in env_file.read_text())
    seen = env_file.read_text()
    assert "HOME=/home/user" in seen
    assert SECRET not in seen and "OPENAI_API_KEY" not in seen
    listing = (terminal.session.home / "ls.txt").read_text()
    assert "/work': No such file or directory" in listing
    assert "/root': No such file or directory" in listing


def test_shell_metacharacters_are_typed_literally(terminal: DesktopEnvironment) -> None:
    text = """echo 'a;b' $(touch pwned) "q" `id` > f & | \\ ~ * ?"""
    terminal.step("write_text", {"text": text})
    assert _wait_until(lambda: text in _terminal_text(terminal))
    # Nothing ran: no Enter was pressed, and no host shell ever saw the text.
    assert not (terminal.session.home / "pwned").exists()
    assert not (terminal.session.home / "f").exists()
    terminal.step("hotkey", {"keys": ["ctrl", "u"]})


def test_click_on_marks_toggles_an_app_setting(desk: DesktopEnvironment) -> None:
    desk.reset()
    desk.execute(st.open_app(app="editor"))
    line_numbers = ev.gsetting_equals(
        schema_id="org.xfce.mousepad.preferences.view", key="show-line-numbers", value="true"
    )
    assert not line_numbers.evaluate(desk).success

    def click_named(role: str, name: str) -> None:
        desk.observe()
        assert desk.snapshot is not None
        mark = next(
            (m for m in desk.snapshot.marks.marks if m.role == role and m.name == name), None
        )
        assert mark is not None, desk.snapshot.marks.text()
        desk.step("click", {"elem": mark.id})

    click_named("menu", "View")
    click_named("menu item", "Line Numbers")
    assert _wait_until(lambda: line_numbers.evaluate(desk).success, timeout=5)
    assert ev.clicked_element(name="line numbers").evaluate(desk).success
    # A real GTK push button: Help > About opens a dialog whose Close button closes it.
    click_named("menu", "Help")
    click_named("menu item", "About")
    assert _wait_until(lambda: any("About" in w.title for w in desk.x11.stacking()))
    click_named("push button", "Close")
    assert _wait_until(lambda: not any("About" in w.title for w in desk.x11.stacking()))


def png_size(png: bytes) -> tuple[int, int]:
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def test_under_pixels_a_click_at_an_elements_point_lands_on_it(desk: DesktopEnvironment) -> None:
    """The pixels set: a plain screenshot in the agent's (here halved) pixel space, no
    element tools, and the oracle's point for a named element opens that very menu."""
    desk.reset(action_set="pixels")
    desk.screenshot_width = 640  # screenshots at half size: coordinates are halved too
    try:
        assert not {"click", "double_click", "right_click"} & set(desk.action_space)
        assert "elem" not in desk.action_space["scroll"].parameters_schema["properties"]
        assert "numbered boxes" not in desk.description
        desk.execute(st.open_app(app="editor"))
        line_numbers = ev.gsetting_equals(
            schema_id="org.xfce.mousepad.preferences.view", key="show-line-numbers", value="true"
        )
        assert not line_numbers.evaluate(desk).success
        observation = desk.observe()
        assert set(observation) == {"screenshot"}
        assert desk.snapshot is not None
        assert observation["screenshot"] == desk.snapshot.png(640)  # no boxes drawn
        assert png_size(observation["screenshot"]) == (640, 400)

        def click_named(name: str, role: str = "") -> None:
            arguments = {"name": name, "role": role}
            call = ActionCall(env="desktop", name="click_on", arguments=arguments)
            played = element_call(call, desk)
            assert played.name == "click_at", played
            assert 0 <= played.arguments["x"] < 640 and 0 <= played.arguments["y"] < 400
            desk.step(played.name, played.arguments)

        click_named("View", "menu")
        # The menu opened: its items are on the screen now.
        assert _wait_until(
            lambda: any(c.name == "Line Numbers" for c in desk.element_candidates(True))
        )
        click_named("Line Numbers")
        assert _wait_until(lambda: line_numbers.evaluate(desk).success, timeout=5)
        # scroll takes a point of the (halved) screenshot instead of an element number.
        assert desk.step("scroll", {"direction": "down", "x": 320, "y": 200}).endswith(
            "at (320, 200)"
        )
        with pytest.raises(InvalidAction, match="both x and y"):
            desk.step("scroll", {"direction": "down", "x": 320})
        with pytest.raises(InvalidAction, match="off the screen"):
            desk.step("scroll", {"direction": "down", "x": 700, "y": 10})
    finally:
        desk.screenshot_width = None
        desk.end_episode()
    assert "click" in desk.action_space and "numbered boxes" in desk.description


def test_copy_reaches_the_clipboard_and_unknown_apps_fail(desk: DesktopEnvironment) -> None:
    desk.reset()
    desk.execute(st.open_app(app="editor"))
    desk.step("write_text", {"text": "copy me please"})
    check = ev.clipboard_contains(text="copy me please", exact=True)
    assert not check.evaluate(desk).success
    desk.step("hotkey", {"keys": ["ctrl", "a"]})
    desk.step("hotkey", {"keys": ["ctrl", "c"]})
    assert check.evaluate(desk).success
    with pytest.raises(ActionFailed, match="no application matches"):
        desk.step("search_app", {"name": "zzzqqq"})
    assert ev.focused_window(title="Mousepad", process="mousepad").evaluate(desk).success


def test_unknown_element_is_an_invalid_action(desk: DesktopEnvironment) -> None:
    desk.observe()
    with pytest.raises(InvalidAction, match="not in the latest observation"):
        desk.step("click", {"elem": 999})
    with pytest.raises(InvalidAction, match="off the screen"):
        desk.step("click_at", {"x": 5000, "y": 10})


def test_ocr_reads_a_typed_word(desk: DesktopEnvironment) -> None:
    desk.reset()
    desk.execute(st.open_app(app="editor"))
    desk.step("write_text", {"text": "Quokka sunrise"})
    assert ev.text_on_screen(text="quokka sunrise").evaluate(desk).success
    assert not ev.text_on_screen(text="walrus midnight").evaluate(desk).success
    snapshot = desk.observe_now(ocr="always")
    assert any(m.source == "ocr" and "Quokka" in m.name for m in snapshot.marks.marks)


def test_reset_restores_the_home_and_closes_apps(desk: DesktopEnvironment) -> None:
    desk.reset()
    desk.execute(st.create_file(path="~/Documents/junk.txt", content="x"))
    (desk.session.home / ".bashrc").write_text("broken")
    shutil.rmtree(desk.session.home / "Pictures")
    desk.execute(st.open_app(app="editor"))
    assert ev.process_running(name="mousepad").evaluate(desk).success
    desk.reset()
    assert not ev.file_exists(path="~/Documents/junk.txt").evaluate(desk).success
    assert ev.directory_exists(path="~/Pictures").evaluate(desk).success
    assert (desk.session.home / ".bashrc").read_text() == Path("/etc/skel/.bashrc").read_text()
    assert ev.process_closed(name="mousepad").evaluate(desk).success
    assert desk.health()
    assert desk.action_log == [] and desk.interactions == []


def test_allowed_port_is_relayed_and_others_are_unreachable(
    desk: DesktopEnvironment, servers: tuple[int, int]
) -> None:
    allowed, other = servers
    fetch = (
        "import sys, urllib.request as u; print(u.urlopen(sys.argv[1], timeout=3).read().decode())"
    )
    ok = ev.command_output(
        command=["python3", "-c", fetch, f"http://127.0.0.1:{allowed}/"], contains=TOKEN
    )
    assert ok.evaluate(desk).success
    blocked = desk.session.run(["python3", "-c", fetch, f"http://127.0.0.1:{other}/"])
    assert blocked.returncode != 0 and "Connection refused" in blocked.stderr


def test_two_instances_side_by_side_and_nothing_survives_stop(desk: DesktopEnvironment) -> None:
    desk.reset()
    second = DesktopEnvironment()
    second.start()
    try:
        assert second.session.display != desk.session.display
        marker = str(second.session.dir)
        second.step("search_app", {"name": "text editor"})
        second.session.run(["sh", "-c", "touch ~/only-here; setsid sleep 600 >/dev/null 2>&1 &"])
        assert ev.process_running(name="mousepad").evaluate(second).success
        assert _wait_until(lambda: ev.process_running(name="sleep").evaluate(second).success)
        assert not ev.process_running(name="mousepad").evaluate(desk).success
        assert not any("Mousepad" in w.title for w in desk.x11.stacking())
        assert not ev.file_exists(path="~/only-here").evaluate(desk).success
        assert ev.file_exists(path="~/only-here").evaluate(second).success
        pids = second.pids()
        display = second.session.display
        assert len(pids) > 5 and _marker_processes(marker)
    finally:
        second.stop()
    assert _wait_until(lambda: not _marker_processes(marker), timeout=5)
    assert _marker_processes(marker) == []
    assert not any(os.path.exists(f"/proc/{p}") and _alive(p) for p in pids)
    assert not os.path.exists(f"/tmp/.X11-unix/X{display}")
    assert not Path(marker).exists()
    assert desk.health()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_search_app_waits_for_an_app_that_is_still_exiting(desk: DesktopEnvironment) -> None:
    """A windowless "mousepad" (on its way out) holds the launch back until it is gone, and
    the editor reopens at once after being quit, again and again."""
    from reefbench.envs.desktop.actions import _wait_for_exiting_apps

    desk.reset()
    assert _wait_for_exiting_apps(desk, within=0)
    fake = desk.session.host_path("~/.local/bin/mousepad")
    fake.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shutil.which("sleep") or "/bin/sleep", fake)
    fake.chmod(0o755)
    pid = desk.session.spawn(["/home/user/.local/bin/mousepad", "600"], name="fake-mousepad")
    assert _wait_until(lambda: ev.process_running(name="mousepad").evaluate(desk).success)
    assert not _wait_for_exiting_apps(desk, within=0.3)
    desk.session.kill(pid)
    assert _wait_for_exiting_apps(desk, within=5.0)
    fake.unlink()

    for _ in range(3):
        desk.step("search_app", {"name": "text editor"})
        assert ev.focused_window(process="mousepad").evaluate(desk).success
        desk.step("hotkey", {"keys": ["ctrl", "q"]})


def test_a_restarted_app_whose_window_gets_the_old_id_back_is_a_new_window() -> None:
    """The X server gives a new client the resource ids of one that just quit: mousepad
    quit and relaunched opens a window with its predecessor's id. Telling windows apart by
    id alone made search_app report 'no application matches' for the text editor."""
    from reefbench.envs.desktop.x11 import XWindow

    class Stacking:
        def __init__(self) -> None:
            self.windows: list[XWindow] = []

        def stacking(self) -> list[XWindow]:
            return self.windows

    desk = DesktopEnvironment("desktop")
    x11 = Stacking()
    desk._x11 = x11  # type: ignore[assignment]
    old = XWindow(0x600003, "Untitled 1 - Mousepad", "Mousepad", 101, (320, 167, 640, 480))
    x11.windows = [old]
    before = desk.window_keys()
    assert desk.new_window(before) is None
    x11.windows = []
    assert desk.new_window(before) is None
    reborn = XWindow(0x600003, "Untitled 1 - Mousepad", "Mousepad", 202, (320, 167, 640, 480))
    x11.windows = [reborn]
    assert desk.new_window(before) == reborn


def test_a_browser_download_lands_in_downloads_and_a_lazy_reset_removes_it(
    desk: DesktopEnvironment, tmp_path: Path
) -> None:
    desk.reset()
    desk.lazy_reset = True
    try:
        desk.reset()  # nothing acted since: a lazy reset would now be skipped...
        source = tmp_path / "photo.png"
        source.write_bytes(b"the photo")
        assert desk.receive_download("IMG_0004.png", source) == "~/Downloads/IMG_0004.png"
        assert desk.receive_download("IMG_0004.png", source) == "~/Downloads/IMG_0004 (1).png"
        assert (
            ev.file_content_equals(path="~/Downloads/IMG_0004.png", content="the photo")
            .evaluate(desk)
            .success
        )
        desk.reset()  # ...but a download counts as a change
        assert not ev.file_exists(path="~/Downloads/IMG_0004.png").evaluate(desk).success
    finally:
        desk.lazy_reset = False


def test_a_file_chooser_may_pick_the_users_files_and_nothing_else(
    desk: DesktopEnvironment,
) -> None:
    desk.reset()
    desk.execute(st.create_file(path="~/Pictures/edited.jpg", content="jpeg"))
    assert desk.file_to_upload("~/Pictures/edited.jpg").read_text() == "jpeg"
    # The call runs and fails (its reason goes back to the agent): not an invalid action.
    with pytest.raises(ActionFailed, match="there is no file"):
        desk.file_to_upload("~/Pictures/missing.jpg")
    with pytest.raises(ActionFailed, match="outside the desktop's writable area"):
        desk.file_to_upload("/etc/passwd")
    (desk.session.home / "escape").symlink_to("/etc/passwd")
    with pytest.raises(ActionFailed, match="leads outside"):
        desk.file_to_upload("~/escape")
