"""The static gates over reef-v0: the instruction lint and the device/app check.

They read tasks only, so they run over the whole suite in seconds; each rule is also
shown to catch a task that breaks it (a gate that cannot fail proves nothing).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from reefbench.actions.spec import ActionCall
from reefbench.benchmark.handmade import assemble
from reefbench.benchmark.templates import POOL
from reefbench.suites import get_suite
from reefbench.tasks.task import Task
from reefbench.validation import lint
from reefbench.validation.devices import device_problems, requirements
from reefbench.validation.gates import static_problems

CODE = {"sender": "Courier", "code": "730215"}


@pytest.fixture(scope="module")
def tasks() -> list[Task]:
    return get_suite("v0").load()


def test_every_task_passes_the_instruction_lint(tasks: list[Task]) -> None:
    failing = {t.id: lint.lint_problems(t, POOL) for t in tasks}
    assert {k: v for k, v in failing.items() if v} == {}


def test_every_certified_solution_uses_the_devices_and_apps_the_instruction_names(
    tasks: list[Task],
) -> None:
    assert {t.id: device_problems(t) for t in tasks if device_problems(t)} == {}
    # the gate is not vacuous: most tasks name a device, and phone tasks name the phone
    assert sum(bool(requirements(t.instruction)) for t in tasks) > len(tasks) * 3 // 4
    phone_only = [t for t in tasks if t.metadata.environments == ["phone"]]
    assert phone_only and all(
        "the phone" in [r.label for r in requirements(t.instruction)] for t in phone_only
    )


def _task(instruction: str, *parts: tuple[str, dict[str, object]], **kw: object) -> Task:
    return assemble("v0-test", instruction, list(parts), level="L2", scenario="test", **kw)  # type: ignore[arg-type]


def _only(rule: Callable[..., list[str]], task: Task) -> list[str]:
    return rule(task, POOL)


def test_lint_finds_action_names_ids_and_settings_keys() -> None:
    steps = _task(
        "On the phone: show_all_drawer(), then tap_on(name='drawer_tasks'), tap the "
        'task-title field and type "Renew the gym pass".',
        ("phone.add_task", {"title": "Renew the gym pass"}),
    )
    found = " ".join(_only(lint.implementation_details, steps))
    assert "show_all_drawer, tap_on" in found and "spells out a call" in found
    assert "drawer_tasks" in found and "task-title" in found
    theme = _task(
        'Set org.gnome.desktop.interface gtk-theme to "Raleigh".',
        ("desktop.gtk_theme", {"theme": "Raleigh"}),
    )
    assert "settings key(s) gtk-theme, org.gnome.desktop.interface" in " ".join(
        _only(lint.implementation_details, theme)
    )
    plain = _task(
        'Set the desktop\'s GTK theme to "Raleigh".', ("desktop.gtk_theme", {"theme": "Raleigh"})
    )
    assert _only(lint.implementation_details, plain) == []


def test_lint_finds_a_secret_the_instruction_gives_away() -> None:
    parts = [
        ("phone.read_code", CODE),
        ("desktop.save_code", {"code": "730215", "path": "~/Documents/amber.txt"}),
    ]
    leaky = _task(
        "The courier texted a pickup code (730215) to the phone; save it in "
        "~/Documents/amber.txt on the computer.",
        *parts,
        edges=[(0, 1)],
    )
    assert "'730215'" in " ".join(_only(lint.secrets_repeated, leaky))
    fine = _task(
        "The courier texted a pickup code to the phone; save it in ~/Documents/amber.txt "
        "on the computer.",
        *parts,
        edges=[(0, 1)],
    )
    assert _only(lint.secrets_repeated, fine) == []


def test_lint_finds_contradictory_goals() -> None:
    twice = _task(
        'Set the desktop\'s GTK theme to "Raleigh", and later to "Emacs".',
        ("desktop.gtk_theme", {"theme": "Raleigh"}),
        ("desktop.gtk_theme", {"theme": "Emacs"}),
    )
    found = _only(lint.contradictory_goals, twice)
    assert len(found) == 1 and "'Emacs' and 'Raleigh'" in found[0]
    on_and_off = _task(
        'On the phone, turn on "Bluetooth" and turn off "Bluetooth".',
        ("phone.turn_on", {"setting": "Bluetooth"}),
        ("phone.turn_off", {"setting": "Bluetooth"}),
    )
    assert _only(lint.contradictory_goals, on_and_off)


def test_lint_finds_a_task_that_only_opens_apps() -> None:
    opening = _task(
        "Open the Contacts app on the phone; independently, open the Mail app on the phone.",
        ("phone.open_app", {"app": "Contacts"}),
        ("phone.open_app", {"app": "Mail"}),
    )
    assert "whole effect is opening apps" in " ".join(_only(lint.opens_only, opening))


def test_lint_finds_one_persons_name_with_another_persons_number() -> None:
    mixed = _task(
        "Add Chloe Martin with the phone number 555-0106 to the phone's contacts.",
        ("phone.add_contact", {"name": "Chloe Martin", "number": "555-0106"}),
    )
    assert "555-0106, Chloe Martin" in " ".join(_only(lint.odd_values, mixed))
    same = _task(
        "Add Chloe Martin with the phone number 555-0103 to the phone's contacts.",
        ("phone.add_contact", {"name": "Chloe Martin", "number": "555-0103"}),
    )
    assert _only(lint.odd_values, same) == []


def test_lint_finds_a_request_to_forward_a_verification_code() -> None:
    parts = [
        ("phone.read_code", CODE),
        ("phone.text_code", {"code": "730215", "number": "555-0104"}),
    ]
    forward = _task(
        "The bank texted a verification code to the phone. Text it to 555-0104 from the phone.",
        *parts,
        edges=[(0, 1)],
    )
    assert "may refuse" in " ".join(_only(lint.invites_refusal, forward))
    pickup = _task(
        "The courier texted a pickup code to the phone. Text it to 555-0104 from the phone.",
        *parts,
        edges=[(0, 1)],
    )
    assert _only(lint.invites_refusal, pickup) == []


def test_the_device_gate_refuses_a_solution_that_avoids_the_named_device_or_app() -> None:
    phone = _task(
        'On the phone, create a note titled "Haircut" with the text "fix the squeaky door".',
        ("phone.add_note", {"title": "Haircut", "body": "fix the squeaky door"}),
    )
    assert device_problems(phone) == []
    phone.alternative_solutions = [
        [
            ActionCall(env="browser", name="click_on", arguments={"name": "Notes", "role": "link"}),
            ActionCall(env="browser", name="click_on", arguments={"name": "New note"}),
        ]
    ]
    assert device_problems(phone) == [
        "devices: alternative solution 0 never uses the phone, which the instruction names"
    ]
    editor = _task(
        'In the text editor, turn on "Toolbar" in the View menu.',
        ("desktop.editor_option", {"option": "Toolbar"}),
    )
    assert device_problems(editor) == []
    editor.alternative_solutions = [
        [
            ActionCall(env="desktop", name="search_app", arguments={"name": "terminal"}),
            ActionCall(
                env="desktop",
                name="write_text",
                arguments={
                    "text": "gsettings set org.xfce.mousepad.preferences.window "
                    "toolbar-visible true; exit\n"
                },
            ),
        ]
    ]
    assert "never uses the text editor" in device_problems(editor)[0]
    vim = _task(
        'Use vim to create the file ~/Desktop/maple.txt with the text "book a table for four".',
        (
            "desktop.create_file",
            {"path": "~/Desktop/maple.txt", "content": "book a table for four"},
        ),
    )
    assert "never uses vim" in " ".join(device_problems(vim))  # the terminal is not vim


def test_the_static_gates_reject_a_bad_task_and_the_cli_runs_them(tasks: list[Task]) -> None:
    bad = _task("Open the Contacts app on the phone.", ("phone.open_app", {"app": "Contacts"}))
    assert any(p.startswith("lint (opens apps only)") for p in static_problems(bad, POOL))
    from reefbench.cli import app

    result = CliRunner().invoke(app, ["suite", "check", "--static"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    n = len(get_suite("v1").load())  # the default suite (reef-v0 also keeps the short tasks)
    assert f"{n} of {n} tasks pass the static gates" in result.output


def test_tasks_show_lists_solutions_and_near_misses() -> None:
    from reefbench.cli import app

    result = CliRunner().invoke(
        app, ["tasks", "show", "--suite", "v0", "v0-hand-code-fanout"], env={"COLUMNS": "250"}
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "reference solution: phone.show_all_drawer()" in out
    assert "alternative 0:" in out
    assert "near misses" in out
    for label in (
        "opens the list of conversations, not the message",
        "saves the code with a label",
    ):
        assert label in out
    assert "555-0140" in out  # what the "two digits swapped" near miss texts to


def test_a_checkpoint_wanting_a_device_its_sentence_never_names_is_found() -> None:
    """A playtest texted a code from the browser's Messages and failed: the checkpoint
    wanted ``by="phone"`` while the sentence about it named no device. reef-v1 is
    published, so its two such tasks are listed as known faults (still found, excused by
    the gates, which play them anyway); the source says the device for the next release."""
    v1 = get_suite("v1")
    assert v1.frozen is not None
    known = v1.frozen.known_faults
    by_id = {t.id: t for t in v1.load()}
    assert len(known) == 2
    for task_id, fault in known.items():
        assert any(fault in p for p in static_problems(by_id[task_id], POOL)), task_id
        assert static_problems(by_id[task_id], POOL, known) == [], task_id
    fixed = {t.id: t for t in get_suite("v0").load()}
    for source_id in ("v0-hand-new-contact-text", "v0-hand-signin-mail"):
        assert device_problems(fixed[source_id]) == [], source_id
