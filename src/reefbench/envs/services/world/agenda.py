"""The rest of a seeded world's account: calendar, task lists, notes, messages and files.

Volumes follow issue 18: 200 events over six months (four before "now", two after), with
weekly meetings and titles that repeat (two dentist appointments, "Team sync" every week);
task lists with done and open items; notes, some of them checklists; text conversations
with about 25 people; a Files tree with invoices and documents of similar names.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import date, datetime, timedelta

from faker import Faker

from reefbench.environments.worlds import text_pdf
from reefbench.envs.services import files, messages, notes, tasks
from reefbench.envs.services.calendar import add_event
from reefbench.envs.services.world.people import Person, Vendor

EVENTS = 200
TASK_LISTS = {
    "Work": ("Send the {} figures", "Review {}'s draft", "Book a room for {}", "Reply to {}"),
    "Home": ("Pay the {} bill", "Call {} about the boiler", "Renew {} insurance"),
    "Shopping": ("Buy {}",),
}
GROCERIES = (
    "milk",
    "eggs",
    "bread",
    "coffee",
    "apples",
    "rice",
    "olive oil",
    "tomatoes",
    "cheese",
    "pasta",
    "yoghurt",
    "lemons",
    "spinach",
    "butter",
)
ONE_OFF = (
    "Dentist",
    "Haircut",
    "Car service",
    "Parents' evening",
    "Yoga",
    "Book club",
    "Lunch with {}",
    "Coffee with {}",
    "Call {}",
    "Interview: {}",
    "Dinner at {}'s",
)
PLACES = ("Room 101", "Room 204", "Studio C", "Main office", "Online", "Kettle Yard Café", "")


def _day(start: date, rng: random.Random, span: int) -> date:
    return start + timedelta(days=rng.randrange(span))


def _time(rng: random.Random, first: int = 8, last: int = 18) -> tuple[str, str]:
    hour, minute = rng.randrange(first, last), rng.choice((0, 15, 30, 45))
    length = rng.choice((30, 45, 60, 60, 90))
    end = datetime(2000, 1, 1, hour, minute) + timedelta(minutes=length)
    return f"{hour:02d}:{minute:02d}", end.strftime("%H:%M")


def build_calendar(
    db: sqlite3.Connection, fake: Faker, rng: random.Random, people: list[Person], now: datetime
) -> None:
    start = (now - timedelta(days=122)).date()
    start -= timedelta(days=start.weekday())  # a Monday
    count = 0
    for week in range(26):  # weekly meetings: the same title every week
        monday = start + timedelta(weeks=week)
        add_event(db, "Team sync", monday.isoformat(), "10:00", "10:30", place="Room 101")
        thursday = monday + timedelta(days=3)
        add_event(db, "1:1 with Priya", thursday.isoformat(), "15:00", "15:30", place="Online")
        count += 2
    for person in people[:12]:  # birthdays of people with one, inside the window
        if person.birthday and count < EVENTS:
            born = date.fromisoformat(person.birthday)
            for year in (start.year, start.year + 1):
                try:
                    day = born.replace(year=year)
                except ValueError:  # 29 February
                    continue
                if start <= day < start + timedelta(days=183):
                    add_event(db, f"{person.name}'s birthday", day.isoformat(), all_day=True)
                    count += 1
    while count < EVENTS:
        title = rng.choice(ONE_OFF)
        if "{}" in title:
            title = title.format(rng.choice(people).first)
        begin, end = _time(rng)
        all_day = rng.random() < 0.08
        add_event(
            db,
            title,
            _day(start, rng, 183).isoformat(),
            "" if all_day else begin,
            "" if all_day else end,
            all_day=all_day,
            place=rng.choice(PLACES),
            description=str(fake.sentence(nb_words=8)) if rng.random() < 0.4 else "",
        )
        count += 1


def build_tasks(
    db: sqlite3.Connection, rng: random.Random, people: list[Person], now: datetime
) -> None:
    for list_name, patterns in TASK_LISTS.items():
        for _ in range(rng.randrange(10, 16)):
            pattern = rng.choice(patterns)
            fill = rng.choice(GROCERIES) if list_name == "Shopping" else rng.choice(people).first
            due = ""
            if rng.random() < 0.6:
                due = (now.date() + timedelta(days=rng.randrange(-20, 40))).isoformat()
            tasks.add_task(
                db, pattern.format(fill), list_name, due=due, completed=rng.random() < 0.3
            )
    for title in ("Renew passport", "Back up the laptop", "Plan the summer trip"):
        tasks.add_task(db, title)


def build_notes(db: sqlite3.Connection, fake: Faker, rng: random.Random) -> None:
    for index in range(14):  # checklists: packing and shopping lists that look alike
        items = rng.sample(GROCERIES, rng.randrange(4, 8))
        title = ("Groceries", "Weekend shopping", "Packing list", "Party")[index % 4]
        if index >= 4:
            title = f"{title} {index // 4 + 1}"
        checked = [item for item in items if rng.random() < 0.3]
        notes.add_note(db, title, items=items, checked=checked, pinned=index == 0)
    for _ in range(30):
        title = str(fake.sentence(nb_words=rng.randrange(2, 5))).rstrip(".")
        notes.add_note(db, title, body=str(fake.paragraph(nb_sentences=rng.randrange(2, 6))))
    notes.add_note(db, "Wi-Fi at the cottage", body=f"Network: Cottage-{rng.randrange(100, 999)}")


def build_messages(
    db: sqlite3.Connection, fake: Faker, rng: random.Random, people: list[Person], now: datetime
) -> None:
    for person in rng.sample(people, 25):
        moment = now - timedelta(days=rng.randrange(1, 120), hours=rng.randrange(24))
        for _ in range(rng.randrange(3, 10)):
            if moment >= now:
                break
            direction = rng.choice(("in", "out"))
            text = str(fake.sentence(nb_words=rng.randrange(4, 14)))
            messages.add_message(
                db, person.mobile, text, direction, moment.strftime("%Y-%m-%dT%H:%M"), read=True
            )
            moment += timedelta(minutes=rng.randrange(2, 600))
        if rng.random() < 0.3 and moment < now:
            messages.add_message(
                db,
                person.mobile,
                "Are we still on for later?",
                "in",
                moment.strftime("%Y-%m-%dT%H:%M"),
            )


def build_files(
    db: sqlite3.Connection, fake: Faker, rng: random.Random, vendors: list[Vendor], now: datetime
) -> None:
    for back in range(1, 5):
        month = (now.replace(day=1) - timedelta(days=28 * back)).strftime("%Y-%m")
        for vendor in rng.sample(vendors, 3):
            lines = [vendor.name, f"Invoice for {month}", f"Amount: GBP {vendor.amount:.2f}"]
            folder = files.folder_id(db, f"Documents/Invoices/{vendor.name}", create=True)
            files.store_file(db, folder, f"invoice_{month}.pdf", text_pdf(lines))
    reports = files.folder_id(db, "Documents/Reports", create=True)
    for quarter in ("Q3", "Q4", "Q1"):
        body = _csv_report(rng, quarter)
        files.store_file(db, reports, f"report_{quarter}.csv", body.encode())
        files.store_file(db, reports, f"report_{quarter}_final.csv", body.encode())
    work = files.folder_id(db, "Documents/Work", create=True)
    for _ in range(10):
        name = f"{fake.word()}_{fake.word()}.txt"
        if files.child(db, work, name) is None:
            files.store_file(db, work, name, str(fake.paragraph(nb_sentences=5)).encode())
    files.add_file(db, "Documents/Travel/itinerary.txt", "London to Lisbon\nHotel: Casa Azul")


def _csv_report(rng: random.Random, quarter: str) -> str:
    rows = ["region,month,sales,costs"]
    for region in ("North", "South", "East", "West"):
        for month in (1, 2, 3):
            rows.append(
                f"{region},{quarter}-M{month},{rng.randrange(800, 9000)},{rng.randrange(500, 6000)}"
            )
    return "\n".join(rows) + "\n"
