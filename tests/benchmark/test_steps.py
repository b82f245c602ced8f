"""reef-v0's L1 steps in a person's words: labels on screen, never actions or ids."""

from __future__ import annotations

from reefbench.benchmark.steps import describe_steps
from reefbench.benchmark.templates import POOL


def test_steps_name_what_is_on_screen() -> None:
    calls = POOL["phone.add_task"].solution_generator(title="Renew the gym pass")  # type: ignore[misc]
    assert describe_steps(calls) == [
        "on the phone, open the list of all apps",
        'on the phone, tap the "Tasks" icon',
        'on the phone, tap the "New task" field',
        'on the phone, type "Renew the gym pass"',
        'on the phone, tap "Add task"',
    ]
    sms = POOL["phone.send_sms"].solution_generator(number="555-0101", text="hi")  # type: ignore[misc]
    assert 'on the phone, tap the "Text message" field' in describe_steps(sms)
    note = POOL["phone.add_note"].solution_generator(title="A", body="b")  # type: ignore[misc]
    assert 'on the phone, tap the "Note" field' in describe_steps(note)
    editor = POOL["desktop.editor_write"].solution_generator(path="~/a.txt", content="x")  # type: ignore[misc]
    assert describe_steps(editor)[:3] == [
        "on the computer, open the text editor app",
        'on the computer, type "x"',
        "on the computer, press Ctrl+S",
    ]


def test_composed_l1_tasks_withhold_the_code_they_ask_to_pass_on() -> None:
    from reefbench.benchmark import composed

    steps = [t for t in composed.load() if "steps" in t.metadata.tags]
    relay = [t for t in steps if any(i.template == "phone.read_code" for i in t.metadata.subtasks)]
    assert relay, "the L1 requests no longer draw a code to pass on"
    for task in relay:
        code = task.metadata.subtasks[0].attributes["code"]
        assert code not in task.instruction
        assert "type the code you found" in task.instruction
