"""The Android environment at the ADB boundary: a scripted transport records every argument
vector and replays real uiautomator dumps, so the tests check exactly what would reach a
device (and its shell) without one."""

from __future__ import annotations

import base64
import io
import shlex
from pathlib import Path

import pytest

from reefbench.actions.spec import ActionCall
from reefbench.environments.grounding import element_call
from reefbench.envs.android import AndroidEnvironment, ScriptedAdb
from reefbench.envs.android.shell import parse_foreground, parse_screen_size, text_commands
from reefbench.envs.android.transport import AdbResult, SubprocessAdb
from reefbench.envs.ui.evaluators import current_app, element_checked, text_on_screen
from reefbench.errors import ActionFailed, EnvironmentFailure, InvalidAction

DUMPS = Path("/work/shared/android")
if not DUMPS.exists():
    DUMPS = Path(__file__).resolve().parents[3].parent / "shared" / "android"
pytestmark = pytest.mark.skipif(not DUMPS.exists(), reason="recorded Android dumps not present")

RESUMED = (
    "  mResumedActivity: ActivityRecord{8a1f2c u0 com.google.android.gm/"
    "com.google.android.gm.ConversationListActivityGmail t12}\n"
)


def png(width: int = 108, height: int = 240) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 220, 240)).save(out, format="PNG")
    return out.getvalue()


def scripted(dump: str = "gmail_inbox.xml") -> ScriptedAdb:
    adb = ScriptedAdb()
    adb.on("get-state", reply="device\n")
    adb.on("shell", "wm", "size", reply="Physical size: 1080x2400\n")
    adb.on(
        "shell", "uiautomator", "dump", reply="UI hierchary dumped to: /sdcard/window_dump.xml\n"
    )
    adb.on("exec-out", "cat", reply=(DUMPS / dump).read_bytes())
    adb.on("exec-out", "screencap", "-p", reply=png())
    adb.on("shell", "dumpsys", "activity", "activities", reply=RESUMED)
    adb.on("shell", "pm", "clear", reply="Success\n")
    return adb


def device_shell_argv(vector: list[str]) -> list[str]:
    """What the device's ``sh -c`` makes of ``adb shell ARGS``: adb joins them with spaces."""
    assert vector[0] == "shell"
    return shlex.split(" ".join(vector[1:]))


def typed_on_device(vectors: list[list[str]]) -> str:
    """Replay the vectors as Android would: unquote, apply `input text`'s %s rule, Enter."""
    out = []
    for vector in vectors:
        argv = device_shell_argv(vector)
        if argv[:2] == ["input", "text"]:
            assert len(argv) == 3, f"text split into several arguments: {argv}"
            out.append(argv[2].replace("%s", " "))
        elif argv == ["input", "keyevent", "66"]:
            out.append("\n")
        elif argv[:4] == ["am", "broadcast", "-a", "ADB_INPUT_B64"]:
            out.append(base64.b64decode(argv[-1]).decode("utf-8"))
        else:
            raise AssertionError(f"unexpected command {argv}")
    return "".join(out)


HOSTILE = 'it\'s "quoted"; echo $(id) `uname` & | > /tmp/x\\ 100% %s done\n\tsecond line'


def test_agent_text_reaches_input_text_literally_through_the_device_shell():
    vectors = text_commands(HOSTILE)
    assert typed_on_device(vectors) == HOSTILE
    for vector in vectors:
        # Each piece of agent text is one argument, quoted so the device shell runs nothing.
        assert vector[:3] in (["shell", "input", "text"], ["shell", "input", "keyevent"])


def test_non_ascii_is_refused_without_an_ime_and_sent_base64_with_adbkeyboard():
    with pytest.raises(ActionFailed, match="ADB Keyboard"):
        text_commands("Grüße, 東京")
    vectors = text_commands("Grüße; $(x)\n東京 'ok'", ime="adbkeyboard")
    assert typed_on_device(vectors) == "Grüße; $(x)\n東京 'ok'"


def test_percent_s_in_agent_text_is_not_turned_into_a_space():
    for text in ("%s", "a%sb", "%%s", "100%", "% s", "%"):
        assert typed_on_device(text_commands(text)) == text


def test_environment_starts_observes_and_acts_through_argument_vectors():
    adb = scripted()
    env = AndroidEnvironment(transport=adb, screenshot_width=None)
    env.start()
    assert env.screen_size() == (1080, 2400)
    observation = env.observe()
    assert observation["screenshot"].startswith(b"\x89PNG")
    assert "Compose" in observation["elements"]
    assert "com.google.android.gm" in observation["elements"]
    compose = next(m for m in env.snapshot.marks.marks.marks if m.name == "Compose")
    adb.calls.clear()
    env.step("tap", {"elem": compose.id})
    x, y = compose.center
    assert adb.calls == [["shell", "input", "tap", str(x), str(y)]]
    adb.calls.clear()
    env.step("long_tap", {"elem": compose.id})
    assert adb.calls == [["shell", "input", "swipe", str(x), str(y), str(x), str(y), "1000"]]
    adb.calls.clear()
    env.step("swipe", {"elem": compose.id, "direction": "up", "distance": "short"})
    assert adb.calls == [["shell", "input", "swipe", str(x), str(y), str(x), str(y - 216), "300"]]
    adb.calls.clear()
    env.step("press", {"key": "back"})
    env.step("press", {"key": "home"})
    assert adb.calls == [
        ["shell", "input", "keyevent", "KEYCODE_BACK"],
        ["shell", "input", "keyevent", "KEYCODE_HOME"],
    ]
    adb.calls.clear()
    env.step("write_text", {"text": HOSTILE})
    assert typed_on_device(adb.calls) == HOSTILE
    adb.calls.clear()
    env.step("show_all_drawer")
    assert adb.calls[0] == ["shell", "input", "keyevent", "KEYCODE_HOME"]
    assert adb.calls[1][:3] == ["shell", "input", "swipe"]
    with pytest.raises(InvalidAction, match="valid ids"):
        env.step("tap", {"elem": 999})


def test_xml_evaluators_read_the_device_like_a_recorded_dump():
    env = AndroidEnvironment(transport=scripted("maps_delete_timeline_dialog.xml"))
    env.start()
    assert element_checked(text="I understand and want to delete.").evaluate(env).success
    assert text_on_screen(text="Delete all Timeline data").evaluate(env).success
    assert current_app(package="com.google.android.gm").evaluate(env).success  # from dumpsys


def test_the_dump_is_cached_until_the_next_input():
    adb = scripted()
    env = AndroidEnvironment(transport=adb)
    env.start()
    env.ui_hierarchy()
    env.ui_hierarchy()
    dumps = [c for c in adb.calls if c[:3] == ["shell", "uiautomator", "dump"]]
    assert len(dumps) == 1
    env.observe()
    env.step("press", {"key": "back"})
    env.ui_hierarchy()
    dumps = [c for c in adb.calls if c[:3] == ["shell", "uiautomator", "dump"]]
    assert len(dumps) == 2


def test_stable_settle_waits_until_two_dumps_agree():
    adb = scripted()
    frames = [b"<hierarchy><node bounds='[0,0][1,1]'/></hierarchy>"] * 2 + [
        (DUMPS / "gmail_inbox.xml").read_bytes()
    ] * 5
    answers = iter(frames)
    adb.on("exec-out", "cat", reply=lambda argv: AdbResult(0, next(answers)))
    env = AndroidEnvironment(transport=adb, settle="stable")
    env.start()
    env.step("press", {"key": "back"})
    cats = [c for c in adb.calls if c[:2] == ["exec-out", "cat"]]
    assert len(cats) == 2  # the first two (loading) dumps already agree
    assert "Compose" not in env.dump_xml()


def test_reset_clears_listed_apps_and_launches_the_start_app():
    adb = scripted()
    env = AndroidEnvironment(
        transport=adb,
        reset_packages=["com.google.android.gm"],
        start_package="com.google.android.gm",
    )
    env.reset()
    shell = [c for c in adb.calls if c[0] == "shell"]
    assert ["shell", "am", "force-stop", "com.google.android.gm"] in shell
    assert ["shell", "pm", "clear", "com.google.android.gm"] in shell
    assert shell[-1][:4] == ["shell", "monkey", "-p", "com.google.android.gm"]


def test_package_names_are_checked_before_they_reach_the_device():
    env = AndroidEnvironment(transport=scripted())
    env.start()
    with pytest.raises(ActionFailed, match="package name"):
        env.launch("com.evil; reboot")
    with pytest.raises(ActionFailed, match="component"):
        env.launch("com.example.app", "Main; reboot")


def test_an_unready_device_fails_with_instructions():
    adb = scripted()
    adb.on("get-state", reply=AdbResult(1, b"", b"error: no devices/emulators found"))
    env = AndroidEnvironment(transport=adb)
    with pytest.raises(EnvironmentFailure, match="adb devices"):
        env.start()


def test_parsers_read_real_dumpsys_and_wm_output():
    window = "  mCurrentFocus=Window{5e1a u0 com.android.settings/com.android.settings.Settings}\n"
    assert parse_foreground(RESUMED) == (
        "com.google.android.gm",
        "com.google.android.gm.ConversationListActivityGmail",
    )
    assert parse_foreground(window) == ("com.android.settings", "com.android.settings.Settings")
    assert parse_foreground("nothing here") is None
    assert parse_screen_size("Physical size: 1080x2400\nOverride size: 720x1600") == (720, 1600)


def test_the_subprocess_transport_builds_argv_lists_with_the_serial(tmp_path: Path):
    fake = tmp_path / "adb"
    fake.write_text('#!/bin/sh\nfor a in "$@"; do printf \'%s\\n\' "$a"; done\n')
    fake.chmod(0o755)
    transport = SubprocessAdb(serial="R58M123", adb=str(fake))
    result = transport.run(["shell", "input", "text", "'$(id)'"])
    assert result.text.splitlines() == ["-s", "R58M123", "shell", "input", "text", "'$(id)'"]


def test_doctor_lists_attached_devices_from_adb_devices():
    import shutil

    from reefbench.host.doctor import adb_devices_check

    if shutil.which("adb") is None:
        assert adb_devices_check() is None
        return
    seen: list[list[str]] = []

    def run(argv: list[str], timeout: float) -> AdbResult:
        seen.append(argv)
        assert timeout > 0
        return AdbResult(
            0,
            b"* daemon started successfully\nList of devices attached\n"
            b"emulator-5554  device product:sdk_gphone64 model:Pixel_8 transport_id:1\n"
            b"R58M123        unauthorized usb:1-1 transport_id:2\n",
        )

    check = adb_devices_check(run)
    assert check is not None and check.ok
    assert check.detail == "emulator-5554 (device, Pixel_8), R58M123 (unauthorized)"
    assert seen[0][1:] == ["devices", "-l"]

    def nothing(argv: list[str], timeout: float) -> AdbResult:
        return AdbResult(0, b"List of devices attached\n\n")

    empty = adb_devices_check(nothing)
    assert empty is not None and not empty.ok and empty.detail == "no device attached"


def test_coordinate_actions_map_screenshot_pixels_to_device_pixels():
    adb = scripted()
    adb.on("exec-out", "screencap", "-p", reply=png(1080, 2400))
    env = AndroidEnvironment(transport=adb, screenshot_width=540)  # agents see half size
    env.start()
    assert env.observe()["screenshot"][16:24] == (540).to_bytes(4, "big") + (1200).to_bytes(
        4, "big"
    )
    adb.calls.clear()
    env.step("tap_at", {"x": 54, "y": 120})
    env.step("long_tap_at", {"x": 0, "y": 0})
    env.step("swipe_from", {"x": 54, "y": 100, "to_x": 54, "to_y": 5000})  # end clamped
    assert [c for c in adb.calls if c[:2] == ["shell", "input"]] == [
        ["shell", "input", "tap", "109", "241"],
        ["shell", "input", "swipe", "1", "1", "1", "1", "1000"],
        ["shell", "input", "swipe", "109", "201", "109", "2399", "300"],
    ]
    with pytest.raises(InvalidAction, match="outside the 540x1200 phone screenshot"):
        env.step("tap_at", {"x": 540, "y": 0})


def test_clear_text_deletes_the_focused_fields_text_back_from_its_end():
    dump = (DUMPS / "gmail_inbox.xml").read_text(encoding="utf-8")
    unfocused = scripted()
    env = AndroidEnvironment(transport=unfocused, screenshot_width=None)
    env.start()
    with pytest.raises(ActionFailed, match="tap the field first"):
        env.step("clear_text")
    # The same screen with one field focused, holding "025".
    focused = dump.replace('<node index="0" text=""', '<node index="0" text="025"', 1)
    focused = focused.replace('focused="false"', 'focused="true"', 1)  # the same first node
    adb = scripted()
    adb.on("exec-out", "cat", reply=focused.encode("utf-8"))
    env = AndroidEnvironment(transport=adb, screenshot_width=None)
    env.start()
    adb.calls.clear()
    env.step("clear_text")
    deletes = [c for c in adb.calls if c[:3] == ["shell", "input", "keyevent"]]
    assert deletes == [["shell", "input", "keyevent", "KEYCODE_MOVE_END", *["KEYCODE_DEL"] * 4]]


def test_under_pixels_the_oracle_taps_inside_the_element_through_a_tenth_size_screenshot():
    """Android shares the touch actions: under pixels no element tool, a plain screenshot,
    and a named element becomes a tap_at in the pixels of the screenshot the agent sees
    (full-size screencaps shown 108 wide) that the device receives inside that element's
    box (1080x2400 device pixels)."""
    adb = scripted()
    adb.on("exec-out", "screencap", "-p", reply=png(1080, 2400))
    env = AndroidEnvironment(transport=adb, screenshot_width=108)
    env.reset(action_set="pixels")
    try:
        assert not {"tap", "long_tap", "swipe"} & set(env.action_space)
        observation = env.observe()
        assert set(observation) == {"screenshot"}
        assert observation["screenshot"][16:24] == png(108, 240)[16:24]  # 108x240, plain
        assert "numbered boxes" not in env.description
        compose = next(m for m in env.snapshot.marks.marks.marks if m.name == "Compose")
        call = element_call(
            ActionCall(env="phone", name="tap_on", arguments={"name": "Compose"}), env
        )
        assert call.name == "tap_at" and call.arguments["x"] < 108 and call.arguments["y"] < 240
        adb.calls.clear()
        env.step(call.name, call.arguments)
        [[*command, x, y]] = adb.calls
        assert command == ["shell", "input", "tap"]
        left, top, width, height = compose.box
        assert left <= int(x) < left + width and top <= int(y) < top + height
    finally:
        env.end_episode()
    assert "tap" in env.action_space
