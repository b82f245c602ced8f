"""Evaluators read the true account state, fail until it holds, and report progress."""

from __future__ import annotations

import pytest

from reefbench.envs.services import ServicesEnvironment
from reefbench.envs.services import evaluators as ev
from reefbench.envs.services import seeding as s

pytestmark = pytest.mark.integration


def test_mail_sent_scores_partial_matches(account: ServicesEnvironment) -> None:
    check = ev.mail_sent(to="john@x.test", subject="Hello John", attachment="plan.txt")
    first = check.evaluate(account)
    assert not first.success and first.progress == 0.0 and "no sent mail" in first.message
    # A look-alike address that contains the right one is another person, and a subject
    # that only contains the right one is another subject.
    account.call(
        "add_mail",
        sender="me",
        to="djohn@x.test",
        subject="Hello John",
        folder="sent",
        attachments={"plan.txt": "x"},
    )
    assert not check.evaluate(account).success
    account.call(
        "add_mail",
        sender="me",
        to="john@x.test",
        subject="Re: Hello John about plans",
        folder="sent",
    )
    assert not check.evaluate(account).success
    # Received mail never counts as sent.
    s.add_mail(sender="john@x.test", subject="Hello John").run(account)
    assert not check.evaluate(account).success
    account.call("add_mail", sender="me", to="john@x.test", subject="hello JOHN!", folder="sent")
    partial = check.evaluate(account)
    assert not partial.success and partial.progress == pytest.approx(2 / 3)
    assert "attachment 'plan.txt'" in partial.message
    account.call(
        "add_mail",
        sender="me",
        to="Ann <ann@x.test>, john@x.test",
        subject="Hello John",
        folder="sent",
        attachments={"plan.txt": "x"},
    )
    assert check.evaluate(account).success


def test_event_contact_task_note_checks(account: ServicesEnvironment) -> None:
    event = ev.event_exists(title="dentist", date="2024-06-05", time="9:30", place="High St")
    assert not event.evaluate(account).success
    s.add_event(title="Dentist", date="2024-06-05", start="10:00", place="1 High St").run(account)
    assert event.evaluate(account).progress == pytest.approx(3 / 4)
    s.add_event(title="Dentist", date="2024-06-05", start="09:30", place="1 High St").run(account)
    assert event.evaluate(account).success
    s.add_event(title="Holiday", date="2024-06-07").run(account)
    assert ev.event_exists(title="Holiday", time="all day").evaluate(account).success
    # An event's length is checked by its end time when asked (a 30-minute call).
    call = ev.event_spans(title="Call", date="2024-06-05", time="14:00", end="14:30")
    s.add_event(title="Call", date="2024-06-05", start="14:00", end="15:00").run(account)
    assert not call.evaluate(account).success
    s.add_event(title="Call", date="2024-06-05", start="14:00", end="14:30").run(account)
    assert call.evaluate(account).success

    phone = ev.contact_has(name="John Lauphin", field="phone", value="+1 (555) 0100")
    assert not phone.evaluate(account).success
    s.add_contact(name="john lauphin", phone="15550100").run(account)
    assert phone.evaluate(account).success
    assert not ev.contact_has(name="John Lauphin", field="shoe").evaluate(account).success
    s.add_contact(name="Ana Ruiz", email="dana.ruiz@example.com").run(account)
    ana = ev.contact_has(name="Ana Ruiz", field="email", value="ana.ruiz@example.com")
    assert not ana.evaluate(account).success, "a look-alike address is another address"
    s.add_contact(name="Ana Ruiz", email="ANA.ruiz@example.com").run(account)
    assert ana.evaluate(account).success

    s.add_task(title="Buy milk", list_name="Shopping", due="2024-06-04").run(account)
    assert (
        ev.task_exists(title="milk", list_name="shopping", due="2024-06-04")
        .evaluate(account)
        .success
    )
    assert not ev.task_exists(title="milk", list_name="My Tasks").evaluate(account).success
    done = ev.task_completed(title="Buy milk")
    assert done.evaluate(account).progress == pytest.approx(1 / 2)
    assert ev.task_completed(title="Buy milk", completed=False).evaluate(account).success

    s.add_note(title="Trip", items=["passport", "tickets"]).run(account)
    assert ev.note_contains(text="Tickets", title="trip").evaluate(account).success
    assert not ev.note_contains(text="sunscreen").evaluate(account).success
    # title and text are fields: swapped, the note does not count
    s.add_note(title="Dentist", body="Room 4B").run(account)
    assert ev.note_contains(text="Room 4B", title="Dentist").evaluate(account).success
    assert not ev.note_contains(text="Dentist", title="Room 4B").evaluate(account).success
    assert not ev.note_contains(text="Tickets", title="trip planning").evaluate(account).success


def test_file_message_clock_settings_maps_checks(account: ServicesEnvironment) -> None:
    s.add_file(path="Documents/Trips/plan.txt", content="Fly to Tokyo").run(account)
    assert (
        ev.file_in_folder(name="plan.txt", folder="Documents/Trips", content="tokyo")
        .evaluate(account)
        .success
    )
    wrong_folder = ev.file_in_folder(name="plan.txt", folder="Documents").evaluate(account)
    assert not wrong_folder.success and wrong_folder.progress == pytest.approx(1 / 2)
    assert ev.folder_exists(path="documents/trips").evaluate(account).success
    assert not ev.file_shared(path="Documents/Trips/plan.txt").evaluate(account).success

    s.add_contact(name="Mia", phone="+44 7700 900123").run(account)
    sent = ev.message_sent(to="Mia", text="on my way")
    s.add_message(contact="Mia", text="On my way!").run(account)  # received: does not count
    assert not sent.evaluate(account).success
    s.add_message(contact="447700900123", text="On my way!", direction="out").run(account)
    assert sent.evaluate(account).success

    s.add_alarm(time="07:30", label="Gym", days="Mon,Wed").run(account)
    assert ev.alarm_set(time="7:30", label="gym").evaluate(account).success
    assert not ev.alarm_set(time="7:30", enabled=False).evaluate(account).success
    account.call("add_timer", seconds=300, label="Tea")
    assert ev.timer_set(seconds=300).evaluate(account).success
    s.add_world_clock(city="Tokyo").run(account)
    assert ev.world_clock_added(city="tokyo").evaluate(account).success

    theme = ev.setting_equals(key="theme", value="dark")
    assert "expected 'dark'" in theme.evaluate(account).message
    s.set_setting(key="theme", value="dark").run(account)
    assert theme.evaluate(account).success

    assert (
        not ev.directions_requested(origin="London", destination="Paris").evaluate(account).success
    )


def test_texts_are_found_as_whole_words_not_inside_longer_ones(
    account: ServicesEnvironment,
) -> None:
    s.add_contact(name="Noor", phone="+1 555 0142").run(account)
    s.add_message(contact="Noor", text="Your code is 48210, room 101", direction="out").run(account)
    assert not ev.message_sent(to="Noor", text="4821").evaluate(account).success
    assert not ev.message_sent(to="Noor", text="room 1").evaluate(account).success
    assert ev.message_sent(to="Noor", text="code is 48210").evaluate(account).success
    assert ev.message_sent(to="Noor", text="ROOM  101").evaluate(account).success
