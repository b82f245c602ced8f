"""``reef play`` in a real browser: a person plays reef-v1 tasks on the page by clicking
and typing on the devices' views, and the stored run is what was played."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

import reefbench
from reefbench.suites import get_suite

pytestmark = pytest.mark.integration

Play = Callable[..., AbstractContextManager[Any]]

PHONE_TASK = "v1-small-d80a59a19b0d"  # add Nairobi to the phone's world clock (6 steps)
DESKTOP_TASK = "v1-hand-f064223bb4c6"  # sum a file's numbers in a terminal, submit the total
MAIL_TASK = "v1-hand-8815ffeea21d"  # read a booking reference from a mail, submit it


def _reference(task_id: str) -> list[tuple[str, str, dict[str, Any]]]:
    task = next(t for t in get_suite("v1").load() if t.id == task_id)
    return [(c.env, c.name, c.arguments) for c in task.reference_solution]


def _stored(run_dir: Path) -> Any:
    run = reefbench.load_run(run_dir, trajectory=True)
    assert len(run.results) == 1
    return run.results[0]


def _calls(result: Any) -> list[tuple[str, str, dict[str, Any]]]:
    return [(c.env, c.name, c.arguments) for turn in result.trajectory for c in turn.calls]


def test_a_phone_task_is_solved_by_tapping_and_typing_on_the_view(
    play: Play, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    # The reference: open the drawer, Clock, World clock, the city field, type, Add city.
    reference = _reference(PHONE_TASK)
    assert [c[1] for c in reference] == [
        "show_all_drawer",
        "tap_on",
        "tap_on",
        "tap_on",
        "write_text",
        "tap_on",
    ]
    with play(PHONE_TASK) as player:
        page = player.page
        expect(page.locator("#instruction")).to_contain_text("Nairobi")
        taps = [player.click_on("phone", "All apps")]  # a person taps the drawer button
        for _, _, arguments in reference[1:4]:
            taps.append(player.click_on("phone", arguments["name"], arguments.get("role", "")))
        player.type("phone", "Nairobi")
        taps.append(player.click_on("phone", "Add city", "Button"))
        expect(page.locator("#outcome")).to_have_text("Solved", timeout=60_000)
        expect(page.locator("#run-dir")).to_contain_text("run")
        timings = player.timings()

    result = _stored(tmp_path / "run")
    assert result.agent == "human" and result.success and result.termination == "success"
    played = _calls(result)
    assert [name for _, name, _ in played] == [
        "tap_at",
        "tap_at",
        "tap_at",
        "tap_at",
        "write_text",
        "tap_at",
    ]
    assert played[4][2] == {"text": "Nairobi"}
    tapped = [(a["x"], a["y"]) for env, name, a in played if name == "tap_at"]
    assert all(env == "phone" for env, _, _ in played)
    for (x, y), (tx, ty) in zip(tapped, taps, strict=True):
        assert abs(x - tx) <= 1 and abs(y - ty) <= 1
    # Every action but the last (which ended the episode: no next view) refreshed the view.
    assert len(timings) == 5 and all(t["fromEvent"] >= t["fromSend"] > 0 for t in timings)


def test_a_wrong_tap_leaves_the_task_unsolved(play: Play, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with play(PHONE_TASK) as player:
        player.click_on("phone", "Calendar")  # not the clock
        player.press_button("#done")
        expect(player.page.locator("#outcome")).to_have_text(
            "Not solved (false_completion)", timeout=60_000
        )
    result = _stored(tmp_path / "run")
    assert not result.success and result.termination == "false_completion"
    assert [(env, name) for env, name, _ in _calls(result)] == [
        ("phone", "tap_at"),
        ("root", "complete"),
    ]


def test_a_desktop_task_is_solved_by_clicking_typing_and_answering(
    play: Play, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    reference = _reference(DESKTOP_TASK)  # search_app terminal, the command, submit 90
    command = reference[1][2]["text"]
    answer = reference[2][2]["answer"]
    with play(DESKTOP_TASK) as player:
        page = player.page
        expect(page.locator("#answer-form")).to_be_visible()
        # A person opens the terminal from the panel's menu, rather than search_app.
        for name in ("Applications", "Other", "Terminal"):
            player.click_on("desktop", name)
        player.type("desktop", command.rstrip("\n"), enter=True)
        # A turn of the wheel over the desktop is a scroll there (harmless here).
        before, timings = player.version(), len(player.timings())
        page.mouse.move(*player.point("desktop", 640, 400))
        page.mouse.wheel(0, 300)
        player.wait_turn(before, timings)
        page.locator("#answer").fill(answer)
        player.press_button("#submit-answer")
        expect(page.locator("#outcome")).to_have_text("Solved", timeout=60_000)

    result = _stored(tmp_path / "run")
    assert result.success and result.answer == answer
    played = _calls(result)
    assert [name for _, name, _ in played] == [
        "click_at",
        "click_at",
        "click_at",
        "write_text",
        "scroll",
        "submit",
    ]
    assert played[3][2] == {"text": command.rstrip("\n") + "\n"}
    scrolled = played[4][2]
    assert (scrolled["direction"], scrolled["amount"]) == ("down", 3)
    # Where the pointer was, within the few pixels a page scroll may move it by.
    assert abs(scrolled["x"] - 640) <= 4 and abs(scrolled["y"] - 400) <= 4


def test_author_mode_shows_checkpoints_and_plays_the_reference_step_by_step(
    play: Play, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    with play(MAIL_TASK, author=True) as player:
        page = player.page
        row = page.locator("#checkpoints tr").first
        expect(row.locator(".state")).to_have_text("pending")
        expect(row).to_contain_text("no answer submitted yet")
        reference = page.locator('.script[data-script="reference"]')
        expect(reference.locator("li")).to_have_count(4)
        for _ in range(4):
            player.press_button('.script[data-script="reference"] button')
        expect(page.locator("#outcome")).to_have_text("Solved", timeout=60_000)
        expect(row.locator(".state")).to_have_text("completed")

    result = _stored(tmp_path / "run")
    assert result.success
    # The reference's named taps were played as taps at the elements' points (pixels).
    assert [name for _, name, _ in _calls(result)] == [
        "show_all_drawer",
        "tap_at",
        "tap_at",
        "submit",
    ]


def test_author_mode_plays_a_near_miss_which_fails(play: Play, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with play(MAIL_TASK, author=True) as player:
        page = player.page
        button = page.locator('.script[data-script="near-0"] button')
        expect(page.locator('.script[data-script="near-0"] h3')).to_contain_text("near miss")
        for _ in range(4):
            player.press_button('.script[data-script="near-0"] button')
        expect(button).to_be_hidden()
        expect(page.locator("#outcome")).to_have_text(
            "Not solved (false_completion)", timeout=60_000
        )
        expect(page.locator("#checkpoints tr").first.locator(".state")).to_have_text("pending")
    assert not _stored(tmp_path / "run").success


def test_the_user_answers_in_the_page_and_other_actions_have_forms(
    play: Play, tmp_path: Path
) -> None:
    """A memory-suite task (no screens): ask the user for the password in the page, then
    write it with the device's own action through its form."""
    from playwright.sync_api import expect

    with play("mem-call-user-wifi", suite="memory") as player:
        page = player.page
        page.locator("#ask-kind").fill("password")
        player.press_button("#ask")
        expect(page.locator("#user-answers li")).to_have_text("password: correct-horse")
        form = page.locator("#device-phone form.other")
        form.locator("select").select_option("write_file")
        form.locator('input[name="path"]').fill("wifi.txt")
        form.locator('input[name="content"]').fill("correct-horse")
        player.press_button("#device-phone form.other button[type=submit]")
        expect(page.locator("#outcome")).to_have_text("Solved", timeout=60_000)
    result = _stored(tmp_path / "run")
    assert result.success and result.user_calls == ["password"]
    assert _calls(result) == [
        ("root", "call_user", {"kind": "password"}),
        ("phone", "write_file", {"path": "wifi.txt", "content": "correct-horse"}),
    ]
