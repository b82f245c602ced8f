"""reef-v0's handmade tasks: written instructions over subtasks from the pool.

Each is assembled from pool templates (so its checkpoints and solutions are the tested
ones) but ordered by hand with edges that need not carry a typed value ("sign in, then
send the mail"), and described in a person's words. They cover what synthesis does not:
CALL_USER for credentials, fan-outs and joins across devices, step-by-step (L1) wording.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reefbench.benchmark.finish import finish
from reefbench.benchmark.templates import POOL
from reefbench.errors import GraphError
from reefbench.link import compose_task
from reefbench.task import Task, TaskMetadata

Part = tuple[str, dict[str, Any]]


def assemble(
    task_id: str,
    instruction: str,
    parts: Sequence[Part],
    edges: Sequence[tuple[int, int]] = (),
    *,
    level: str,
    scenario: str,
) -> Task:
    """A task from templates in solution order; ``edges`` (i < j) order subtask i before j.

    Like :func:`~reefbench.link.compose_task`, every checkpoint sink of i precedes
    every source of j, and the solution spans stay per subtask (SR@k works).
    """
    for i, j in edges:
        if not 0 <= i < j < len(parts):
            raise GraphError(f"{task_id}: edge ({i}, {j}) must go forward between subtasks")
    task = compose_task(
        task_id,
        [(POOL[template], values) for template, values in parts],
        instruction=instruction,
        metadata=TaskMetadata(level=level, scenario=scenario),  # type: ignore[arg-type]
    )
    ends: dict[str, tuple[list[str], list[str]]] = {}
    for info in task.metadata.subtasks:
        own = set(info.nodes)
        inner = [(u, v) for u, v in task.edges if u in own and v in own]
        sources = [n for n in info.nodes if not any(v == n for _, v in inner)]
        sinks = [n for n in info.nodes if not any(u == n for u, _ in inner)]
        ends[info.id] = (sources, sinks)
    for i, j in edges:
        sinks, sources = ends[f"s{i}"][1], ends[f"s{j}"][0]
        task.edges.extend((u, v) for u in sinks for v in sources)
    task.metadata.subtask_links = [(f"s{i}", f"s{j}") for i, j in edges]
    task = Task.model_validate(task.model_dump() | {"nodes": task.nodes})  # re-check the DAG
    return finish(task, tags=("handmade",))


def _tasks() -> list[Task]:
    return [
        assemble(
            "v0-hand-signin-mail",
            'The browser was signed out of the cloud account. Sign in again as "alex" (ask '
            "me for the password), then from the browser email ben.okafor@example.com with "
            "the subject "
            '"Budget draft" and the text "pay the electricity bill".',
            [
                ("browser.sign_in", {}),
                (
                    "browser.send_mail",
                    {
                        "to": "ben.okafor@example.com",
                        "subject": "Budget draft",
                        "body": "pay the electricity bill",
                    },
                ),
            ],
            [(0, 1)],
            level="L3",
            scenario="email",
        ),
        assemble(
            "v0-hand-signin-event",
            'Sign the browser back in to the cloud account (user "alex"; I will tell you '
            'the password when you ask) and put "Car service" in the calendar on '
            "2024-06-07 at 08:30.",
            [
                ("browser.sign_in", {}),
                (
                    "browser.add_event",
                    {"title": "Car service", "date": "2024-06-07", "time": "08:30"},
                ),
            ],
            [(0, 1)],
            level="L3",
            scenario="calendar management",
        ),
        assemble(
            "v0-hand-signin-file",
            'After signing the browser in again as "alex" (ask me for the password), create '
            'the text file "tundra-report.txt" in Files containing "write the monthly report".',
            [
                ("browser.sign_in", {}),
                (
                    "browser.new_text_file",
                    {"name": "tundra-report.txt", "content": "write the monthly report"},
                ),
            ],
            [(0, 1)],
            level="L3",
            scenario="cloud files",
        ),
        assemble(
            "v0-hand-code-fanout",
            # It used to be the bank's verification code: asking to forward one to someone
            # else measures a model's safety policy, not its skill (the lint gate).
            "The courier just texted a pickup code to the phone. Save the code on the "
            "computer in ~/Documents/amber.txt, and also text it to 555-0104 from the phone "
            "(my neighbour collects the parcel).",
            [
                ("phone.read_code", {"sender": "Courier", "code": "730215"}),
                ("desktop.save_code", {"code": "730215", "path": "~/Documents/amber.txt"}),
                ("phone.text_code", {"code": "730215", "number": "555-0104"}),
            ],
            [(0, 1), (0, 2)],
            level="L4",
            scenario="account security",
        ),
        assemble(
            "v0-hand-project-folder",
            'Write "plan the team offsite" into ~/Documents/birch.txt and "book a table for '
            'four" into ~/Documents/cobalt.txt, create the folder ~/Documents/OffsiteProject, '
            "move both files into it, and finally pack the folder into "
            "~/Downloads/offsite-bundle.tar.gz.",
            [
                (
                    "desktop.create_file",
                    {"path": "~/Documents/birch.txt", "content": "plan the team offsite"},
                ),
                (
                    "desktop.create_file",
                    {"path": "~/Documents/cobalt.txt", "content": "book a table for four"},
                ),
                ("desktop.make_folder", {"folder": "~/Documents/OffsiteProject"}),
                (
                    "desktop.move_into_folder",
                    {"path": "~/Documents/birch.txt", "folder": "~/Documents/OffsiteProject"},
                ),
                (
                    "desktop.move_into_folder",
                    {"path": "~/Documents/cobalt.txt", "folder": "~/Documents/OffsiteProject"},
                ),
                (
                    "desktop.archive_folder",
                    {
                        "folder": "~/Documents/OffsiteProject",
                        "archive": "~/Downloads/offsite-bundle.tar.gz",
                    },
                ),
            ],
            [(0, 3), (2, 3), (1, 4), (2, 4), (3, 5), (4, 5)],
            level="L4",
            scenario="file management",
        ),
        assemble(
            "v0-hand-card-call",
            "~/Desktop/harbor.txt on the computer is a contact card. Save that person with "
            "their number in the phone's contacts, then call them from the phone.",
            [
                (
                    "cross.card_to_contact",
                    {"path": "~/Desktop/harbor.txt", "name": "Elif Kaya", "number": "555-0105"},
                ),
                ("phone.call_number", {"number": "555-0105"}),
            ],
            [(0, 1)],
            level="L4",
            scenario="contacts",
        ),
        assemble(
            "v0-hand-quiet-evening",
            'Get the phone ready for the evening: turn on "Do not disturb" and "Dark theme", '
            "turn off Wi-Fi, and start a 25-minute timer.",
            [
                ("phone.turn_on", {"setting": "Do not disturb"}),
                ("phone.turn_on", {"setting": "Dark theme"}),
                ("phone.turn_off", {"setting": "Wi-Fi"}),
                ("phone.start_timer", {"minutes": 25}),
            ],
            level="L2",
            scenario="phone settings",
        ),
        assemble(
            "v0-hand-pictures",
            "Scale ~/Pictures/delta.png down to 120 pixels wide as ~/Pictures/delta-small.png, "
            "then convert that small copy to JPEG as ~/Pictures/delta.jpg.",
            [
                (
                    "desktop.resize_image",
                    {
                        "image": "~/Pictures/delta.png",
                        "width": 120,
                        "target": "~/Pictures/delta-small.png",
                    },
                ),
                (
                    "desktop.convert_image",
                    {"image": "~/Pictures/delta-small.png", "target": "~/Pictures/delta.jpg"},
                ),
            ],
            [(0, 1)],
            level="L2",
            scenario="image editing",
        ),
        assemble(
            "v0-hand-meeting-brief",
            # It used to ask for "the place" and expect "Studio C after lunch": a model that
            # wrote "Studio C" failed for the benchmark's mistake. Now it asks for what it checks.
            'The mail "Workshop agenda" on the phone says where and when we meet. Write that '
            "meeting detail, exactly as the mail gives it, into ~/Desktop/indigo.txt on the "
            'computer, then add the line "bring the slides" to that file.',
            [
                (
                    "cross.mail_room_to_file",
                    {
                        "subject": "Workshop agenda",
                        "memo": "Studio C after lunch",
                        "path": "~/Desktop/indigo.txt",
                    },
                ),
                (
                    "desktop.append_line",
                    {"path": "~/Desktop/indigo.txt", "line": "bring the slides"},
                ),
            ],
            [(0, 1)],
            level="L4",
            scenario="meetings",
        ),
        assemble(
            "v0-hand-sum-expenses",
            "~/Documents/fjord.txt lists this week's expenses, one number per line. What do "
            "they add up to? Submit the total.",
            [("desktop.sum_numbers", {"path": "~/Documents/fjord.txt", "numbers": "33 6 11 40"})],
            level="L2",
            scenario="personal finance",
        ),
        assemble(
            "v0-hand-booking-reference",
            'Find the booking reference in the mail "Trip itinerary" on the phone and submit it.',
            [("phone.mail_answer", {"subject": "Trip itinerary", "code": "641857"})],
            level="L2",
            scenario="travel",
        ),
        assemble(
            "v0-hand-message-fanout",
            "Read the message in ~/Downloads/raven.txt on the computer. On the phone, save it "
            'as a note titled "Parking", and email it to greta.lind@example.com with the '
            'subject "Garden party".',
            [
                (
                    "desktop.read_message",
                    {"path": "~/Downloads/raven.txt", "memo": "Parking level P2 spot 44"},
                ),
                ("phone.note_message", {"memo": "Parking level P2 spot 44", "title": "Parking"}),
                (
                    "phone.mail_message",
                    {
                        "memo": "Parking level P2 spot 44",
                        "to": "greta.lind@example.com",
                        "subject": "Garden party",
                    },
                ),
            ],
            [(0, 1), (0, 2)],
            level="L4",
            scenario="sharing information",
        ),
        assemble(
            "v0-hand-editor-setup",
            'Turn on "Line Numbers" and "Statusbar" in the text editor\'s View menu; after '
            'that, write "update the project board" in the editor and save it as '
            "~/Documents/garnet.txt.",
            [
                ("desktop.editor_option", {"option": "Line Numbers"}),
                ("desktop.editor_option", {"option": "Statusbar"}),
                (
                    "desktop.editor_write",
                    {"path": "~/Documents/garnet.txt", "content": "update the project board"},
                ),
            ],
            [(0, 2), (1, 2)],
            level="L2",
            scenario="text editing",
        ),
        assemble(
            "v0-hand-tidy-desktop",
            'Three small chores on the computer: stop the background program "sync-agent", '
            'set the GTK theme to "Adwaita-dark", and put "send the invoice to Lena" on the '
            "clipboard.",
            [
                ("desktop.stop_program", {"program": "sync-agent"}),
                ("desktop.gtk_theme", {"theme": "Adwaita-dark"}),
                ("desktop.clipboard", {"text": "send the invoice to Lena"}),
            ],
            level="L2",
            scenario="system management",
        ),
        assemble(
            "v0-hand-steps-backup",
            "Do exactly this on the computer: (1) open the Terminal app; (2) type "
            '"mkdir -p /home/user/Desktop/JuniperStuff; exit" and press Enter; (3) open the '
            "terminal again; (4) type \"printf '%s\\n' 'renew the gym pass' > "
            '/home/user/Desktop/JuniperStuff/juniper.txt; exit" and press Enter.',
            [
                ("desktop.make_folder", {"folder": "~/Desktop/JuniperStuff"}),
                (
                    "desktop.create_file",
                    {"path": "~/Desktop/JuniperStuff/juniper.txt", "content": "renew the gym pass"},
                ),
            ],
            [(0, 1)],
            level="L1",
            scenario="backups",
        ),
        assemble(
            "v0-hand-week-in-browser",
            'In the browser: add "Team sync" to the calendar on 2024-06-10 at 09:15, a to-do '
            '"Plan the team offsite" due 2024-06-12, and an alarm at 08:30 labelled "Team sync".',
            [
                (
                    "browser.add_event",
                    {"title": "Team sync", "date": "2024-06-10", "time": "09:15"},
                ),
                ("browser.task_due", {"title": "Plan the team offsite", "due": "2024-06-12"}),
                ("browser.set_alarm", {"time": "08:30", "label": "Team sync"}),
            ],
            level="L2",
            scenario="calendar management",
        ),
        assemble(
            "v0-hand-event-place-copy",
            'Check on the phone where today\'s "Vet visit" takes place, write the place into '
            "~/Documents/lagoon.txt on the computer, then keep a copy of that file as "
            "~/Desktop/backup-lagoon.txt.",
            [
                (
                    "cross.event_place_to_file",
                    {
                        "title": "Vet visit",
                        "place": "North Clinic",
                        "path": "~/Documents/lagoon.txt",
                    },
                ),
                (
                    "desktop.copy_file",
                    {"source": "~/Documents/lagoon.txt", "target": "~/Desktop/backup-lagoon.txt"},
                ),
            ],
            [(0, 1)],
            level="L4",
            scenario="appointments",
        ),
        assemble(
            "v0-hand-new-contact-text",
            "Add Hiro Tanaka (555-0108) to the phone's contacts, then text him \"book a table "
            'for four". Separately, the parcel pickup code in ~/Documents/maple.txt on the '
            "computer must go by text from the phone to 555-0111.",
            [
                ("phone.add_contact", {"name": "Hiro Tanaka", "number": "555-0108"}),
                ("phone.text_contact", {"number": "555-0108", "text": "book a table for four"}),
                (
                    "cross.file_code_to_sms",
                    {"path": "~/Documents/maple.txt", "code": "318640", "number": "555-0111"},
                ),
            ],
            [(0, 1)],
            level="L4",
            scenario="messaging",
        ),
        assemble(
            "v0-hand-desk-move",
            'The mail "Contract review" on the phone says where my new desk is. Write that '
            "place into ~/Documents/nimbus.txt on the computer, copy the file to "
            "~/Documents/nimbus-copy.txt, rename the copy to nimbus-final.txt, add the line "
            '"ask for a visitor badge" to it, and move it into a new folder '
            '~/Documents/NimbusProject. Also turn on "Do not disturb" on the phone.',
            [
                (
                    "cross.mail_room_to_file",
                    {
                        "subject": "Contract review",
                        "memo": "Desk 27 on floor 5",
                        "path": "~/Documents/nimbus.txt",
                    },
                ),
                (
                    "desktop.copy_file",
                    {"source": "~/Documents/nimbus.txt", "target": "~/Documents/nimbus-copy.txt"},
                ),
                (
                    "desktop.rename_file",
                    {"path": "~/Documents/nimbus-copy.txt", "new_name": "nimbus-final.txt"},
                ),
                (
                    "desktop.append_line",
                    {"path": "~/Documents/nimbus-final.txt", "line": "ask for a visitor badge"},
                ),
                ("desktop.make_folder", {"folder": "~/Documents/NimbusProject"}),
                (
                    "desktop.move_into_folder",
                    {"path": "~/Documents/nimbus-final.txt", "folder": "~/Documents/NimbusProject"},
                ),
                ("phone.turn_on", {"setting": "Do not disturb"}),
            ],
            [(0, 1), (1, 2), (2, 3), (3, 5), (4, 5)],
            level="L4",
            scenario="moving desks",
        ),
        assemble(
            "v0-hand-phone-errands",
            'Five quick things on the phone, in any order: turn on "Bluetooth", add a note '
            '"Book club" saying "return the library books", text "On my way" to 555-0107, '
            'add Seoul to the world clock, and create the folder "Receipts" in Files.',
            [
                ("phone.turn_on", {"setting": "Bluetooth"}),
                ("phone.add_note", {"title": "Book club", "body": "return the library books"}),
                ("phone.send_sms", {"number": "555-0107", "text": "On my way"}),
                ("phone.world_clock", {"city": "Seoul"}),
                ("phone.new_folder", {"folder": "Receipts"}),
            ],
            level="L4",
            scenario="errands",
        ),
        assemble(
            "v0-hand-busy-morning",
            'On the computer, create ~/Documents/quartz.txt with the line "plan the team '
            'offsite", then add the lines "book a table for four" and "send the invoice to '
            'Lena" (in that order), make the file executable, and finally add the line '
            '"write the monthly report". Meanwhile, on the phone: turn on "Airplane mode", '
            'add Lima to the world clock, add the to-do "Check the tyre pressure", and start a '
            "10-minute timer.",
            [
                (
                    "desktop.create_file",
                    {"path": "~/Documents/quartz.txt", "content": "plan the team offsite"},
                ),
                (
                    "desktop.append_line",
                    {"path": "~/Documents/quartz.txt", "line": "book a table for four"},
                ),
                (
                    "desktop.append_line",
                    {"path": "~/Documents/quartz.txt", "line": "send the invoice to Lena"},
                ),
                ("desktop.make_executable", {"path": "~/Documents/quartz.txt"}),
                (
                    "desktop.append_line",
                    {"path": "~/Documents/quartz.txt", "line": "write the monthly report"},
                ),
                ("phone.turn_on", {"setting": "Airplane mode"}),
                ("phone.world_clock", {"city": "Lima"}),
                ("phone.add_task", {"title": "Check the tyre pressure"}),
                ("phone.start_timer", {"minutes": 10}),
            ],
            [(0, 1), (1, 2), (2, 3), (3, 4)],
            level="L4",
            scenario="morning routine",
        ),
    ]


def load() -> list[Task]:
    """The handmade tasks."""
    return _tasks()
