"""The mailbox of a seeded world: threads with replies, invoices, receipts, newsletters.

About 360 messages over the five months before the world's "now", in the inbox, Sent,
Archive, Trash and two folders of the user's own (Receipts, Travel). Look-alikes on
purpose: every vendor sends "Your invoice for <month>" each month with a PDF attached,
several threads share a subject in different months, and people with near-identical names
write about similar things.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime, timedelta

from faker import Faker

from reefbench.environments.worlds import text_pdf
from reefbench.envs.services.mail import add_mail
from reefbench.envs.services.world.people import Person, Vendor

ME = "alex.morgan@reef.test"
MONTHS = 5
THREADS = 50
NEWSLETTERS = 70
NOTIFICATIONS = 45
RECEIPTS = 30
TRAVEL = 12
RECURRING_SUBJECTS = (
    "Team sync notes",
    "Quarterly report draft",
    "Budget review",
    "Catch-up next week?",
    "Project Kestrel update",
    "Office move",
)
NEWSLETTER_SENDERS = (
    ("The Weekly Byte", "news@weeklybyte.test"),
    ("Green Thumb Gardening", "hello@greenthumb.test"),
    ("City Cinema", "listings@citycinema.test"),
    ("Runner's Digest", "digest@runnersdigest.test"),
    ("Bookshelf Club", "club@bookshelf.test"),
)
NOTIFIERS = (
    ("Parcel tracking", "noreply@parcelgo.test"),
    ("Bank alerts", "alerts@harbourbank.test"),
    ("Calendar", "calendar@reef.test"),
    ("Security", "security@reef.test"),
)
SHOPS = ("Pepper & Pine", "Lumen Books", "Kettle Yard Café", "Northgate Hardware", "Tidy Pharmacy")
CITIES = ("Lisbon", "Edinburgh", "Copenhagen", "Porto", "Bruges", "Vienna")


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def _moment(rng: random.Random, start: datetime, end: datetime) -> datetime:
    seconds = int((end - start).total_seconds())
    moment = start + timedelta(seconds=rng.randrange(max(seconds, 1)))
    return moment.replace(hour=rng.randrange(7, 21), minute=rng.randrange(60), second=0)


def _paragraphs(fake: Faker, count: int) -> str:
    return "\n\n".join(str(fake.paragraph(nb_sentences=3)) for _ in range(count))


def _month_start(now: datetime, back: int) -> datetime:
    year, month = now.year, now.month - back
    while month < 1:
        month, year = month + 12, year - 1
    return datetime(year, month, 1, 9, 0)


def _invoice(db: sqlite3.Connection, rng: random.Random, vendor: Vendor, month: datetime) -> None:
    label = month.strftime("%B %Y")
    number = f"{vendor.prefix}-{month:%Y%m}-{rng.randrange(1000, 9999)}"
    amount = round(vendor.amount * rng.uniform(0.85, 1.2), 2)
    due = (month + timedelta(days=21)).date().isoformat()
    pdf = text_pdf(
        [
            vendor.name,
            vendor.address,
            "",
            f"Invoice {number}",
            f"Billing period: {label}",
            "Bill to: Alex Morgan",
            "",
            f"Amount due: GBP {amount:.2f}",
            f"Due date: {due}",
        ],
        title=f"Invoice {number}",
    )
    mail_id = add_mail(
        db,
        sender=f"billing@{vendor.prefix.lower()}.test",
        subject=f"Your invoice for {label}",
        body=(
            f"Dear Alex Morgan,\n\nYour {vendor.name} invoice {number} for {label} is attached."
            f"\nAmount due: £{amount:.2f}, payable by {due}.\n\nKind regards,\n{vendor.name}"
        ),
        date=_stamp(month + timedelta(days=rng.randrange(0, 5), hours=rng.randrange(8))),
        folder="inbox" if rng.random() < 0.6 else "archive",
        read=rng.random() < 0.8,
    )
    _attach(db, mail_id, f"invoice_{month:%Y-%m}.pdf", "application/pdf", pdf)


def _attach(db: sqlite3.Connection, mail_id: int, name: str, mime: str, content: bytes) -> None:
    db.execute(
        "INSERT INTO attachments(mail_id, name, mime, content) VALUES (?, ?, ?, ?)",
        (mail_id, name, mime, content),
    )


def _thread(
    db: sqlite3.Connection,
    fake: Faker,
    rng: random.Random,
    people: list[Person],
    subject: str,
    start: datetime,
    now: datetime,
) -> None:
    person = rng.choice(people)
    address = person.work_email or person.email
    thread_id = int(db.execute("SELECT coalesce(max(thread_id), 0) + 1 FROM mail").fetchone()[0])
    moment = start
    mine = rng.random() < 0.3  # who writes first
    old = now - moment > timedelta(days=60)
    for turn in range(rng.randrange(2, 6)):
        if moment >= now:
            break
        prefix = "" if turn == 0 else "Re: "
        body = _paragraphs(fake, rng.randrange(1, 3))
        if mine:
            add_mail(
                db,
                ME,
                prefix + subject,
                f"Hi {person.first},\n\n{body}\n\nAlex",
                to=address,
                date=_stamp(moment),
                folder="sent",
                read=True,
                thread_id=thread_id,
            )
        else:
            folder = "archive" if old and rng.random() < 0.7 else "inbox"
            mail_id = add_mail(
                db,
                address,
                prefix + subject,
                f"Hi Alex,\n\n{body}\n\n{person.first}",
                date=_stamp(moment),
                folder=folder,
                read=old or rng.random() < 0.6,
                thread_id=thread_id,
            )
            if rng.random() < 0.2:
                notes = "\n".join(f"- {fake.sentence(nb_words=6)}" for _ in range(4))
                _attach(
                    db,
                    mail_id,
                    f"{subject.split()[0].lower()}_notes.txt",
                    "text/plain",
                    f"{subject}\n\n{notes}\n".encode(),
                )
        mine = not mine
        moment += timedelta(hours=rng.randrange(1, 60), minutes=rng.randrange(60))


def build_mailbox(
    db: sqlite3.Connection,
    fake: Faker,
    rng: random.Random,
    people: list[Person],
    vendors: list[Vendor],
    now: datetime,
) -> None:
    """Fill the mailbox (see the module docstring for what and why)."""
    first = _month_start(now, MONTHS)
    for back in range(MONTHS, -1, -1):
        month = _month_start(now, back)
        if month > now:
            continue
        for vendor in vendors:
            if month + timedelta(days=4) < now:
                _invoice(db, rng, vendor, month)
    for index in range(THREADS):
        subject = (
            RECURRING_SUBJECTS[index % len(RECURRING_SUBJECTS)]
            if index < 2 * len(RECURRING_SUBJECTS)
            else str(fake.sentence(nb_words=rng.randrange(3, 7))).rstrip(".")
        )
        _thread(db, fake, rng, people, subject, _moment(rng, first, now), now)
    for _ in range(NEWSLETTERS):
        title, sender = rng.choice(NEWSLETTER_SENDERS)
        moment = _moment(rng, first, now)
        add_mail(
            db,
            f"{title} <{sender}>",
            f"{title}: {fake.catch_phrase()}",
            _paragraphs(fake, 3),
            date=_stamp(moment),
            folder="inbox" if rng.random() < 0.8 else "trash",
            read=rng.random() < 0.7,
        )
    for _ in range(NOTIFICATIONS):
        title, sender = rng.choice(NOTIFIERS)
        moment = _moment(rng, first, now)
        add_mail(
            db,
            f"{title} <{sender}>",
            f"{title}: {fake.sentence(nb_words=5).rstrip('.')}",
            str(fake.paragraph(nb_sentences=2)),
            date=_stamp(moment),
            folder="inbox" if rng.random() < 0.7 else "archive",
            read=rng.random() < 0.85,
        )
    for _ in range(RECEIPTS):
        shop = rng.choice(SHOPS)
        moment = _moment(rng, first, now)
        total = round(rng.uniform(3, 180), 2)
        order = f"{rng.randrange(100000, 999999)}"
        mail_id = add_mail(
            db,
            f"{shop} <orders@{''.join(c for c in shop.lower() if c.isalpha())}.test>",
            f"Your {shop} receipt",
            f"Thank you for your order {order}.\nTotal paid: £{total:.2f}",
            date=_stamp(moment),
            folder="Receipts",
            read=True,
        )
        lines = [shop, f"Order {order}", f"Date: {moment:%Y-%m-%d}", f"Total: GBP {total:.2f}"]
        _attach(db, mail_id, f"receipt_{order}.pdf", "application/pdf", text_pdf(lines))
    for _ in range(TRAVEL):
        city = rng.choice(CITIES)
        moment = _moment(rng, first, now)
        departs = moment + timedelta(days=rng.randrange(10, 60), hours=rng.randrange(-6, 6))
        booking = fake.bothify("??#####").upper()
        add_mail(
            db,
            "Skyway Airlines <bookings@skyway.test>",
            f"Booking confirmation: London to {city}",
            f"Booking reference {booking}.\nDeparture: {departs:%Y-%m-%d %H:%M} from London.\n"
            f"Destination: {city}.",
            date=_stamp(moment),
            folder="Travel",
            read=True,
        )
