"""The people of a seeded world: contacts with several numbers and addresses, look-alikes
on purpose, and the vendors that send invoices.

Hard tasks search among distractors, so the address book holds groups of people whose
names differ by a letter or a middle initial ("Dana Whitfield", "Dana Whitfeld", "Dana
M. Whitfield") and who work at different companies: a task naming one of them can only be
solved by reading the right row.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from faker import Faker

from reefbench.environments.worlds import VENDORS, WORLD_NOW

CONTACTS = 150
LOOKALIKE_GROUPS = 15  # each adds two people whose names nearly match an existing one
_DOMAINS = ("mailbox.test", "inbox.test", "post.test", "webmail.test")


@dataclass(frozen=True)
class Person:
    """One contact of the world (and the sender or recipient of their mail and messages)."""

    name: str
    mobile: str
    email: str
    company: str
    work_phone: str
    work_email: str
    address: str
    work_address: str
    birthday: str

    @property
    def first(self) -> str:
        return self.name.split()[0]


@dataclass(frozen=True)
class Vendor:
    """A company that bills the account every month (invoices with the same subject in
    different months, from several vendors: the distractors of "the March invoice")."""

    name: str
    address: str
    prefix: str
    amount: float


def _slug(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _mobile(rng: random.Random, used: set[str]) -> str:
    # Ofcom's drama range (07700 900000-900999 and neighbours): never a real subscriber.
    while True:
        number = f"+44 7700 9{rng.randrange(100000):05d}"
        if number not in used:
            used.add(number)
            return number


def _landline(rng: random.Random) -> str:
    return f"+44 20 7946 {rng.randrange(10000):04d}"


def _respell(last: str, rng: random.Random) -> str:
    """A surname one letter away: a doubled or dropped letter, or a swapped vowel."""
    vowels = "aeiou"
    spots = [i for i, ch in enumerate(last) if ch in vowels and i > 0]
    choice = rng.randrange(3)
    if choice == 0 and spots:
        i = rng.choice(spots)
        other = rng.choice([v for v in vowels if v != last[i]])
        return last[:i] + other + last[i + 1 :]
    if choice == 1 and len(last) > 4:
        i = rng.randrange(1, len(last) - 1)
        return last[:i] + last[i + 1 :]
    i = rng.randrange(1, len(last))
    return last[:i] + last[i] + last[i:]


def _birthday(fake: Faker) -> str:
    """Someone 21 to 75 years old on the world's day, as Faker's ``date_of_birth`` would
    draw it (the same draw), but around :data:`WORLD_NOW` rather than the day the world is
    built: ``date_of_birth`` reads the real clock, and a world built on another day had
    other birthdays (and, through the draw's range, other rows after them)."""
    today = datetime.fromisoformat(WORLD_NOW).date()
    start = today.replace(year=today.year - 76)
    end = today.replace(year=today.year - 21)
    born = fake.date_time_ad(start_datetime=start, end_datetime=end).date()
    return (born if born != start else born + timedelta(days=1)).isoformat()


def _company(fake: Faker) -> str:
    return str(fake.company())


def _person(
    fake: Faker, rng: random.Random, name: str, used_phones: set[str], used_mail: set[str]
) -> Person:
    first, *_, last = name.replace(".", "").split()
    company = _company(fake)
    base = f"{_slug(first)}.{_slug(last)}"
    email = f"{base}@{rng.choice(_DOMAINS)}"
    while email in used_mail:
        email = f"{base}{rng.randrange(10, 99)}@{rng.choice(_DOMAINS)}"
    used_mail.add(email)
    has_work = rng.random() < 0.7
    work_email = f"{_slug(first)[0]}.{_slug(last)}@{_slug(company)[:18]}.test" if has_work else ""
    return Person(
        name=name,
        mobile=_mobile(rng, used_phones),
        email=email,
        company=company if has_work or rng.random() < 0.5 else "",
        work_phone=_landline(rng) if has_work and rng.random() < 0.8 else "",
        work_email=work_email,
        address=str(fake.address()).replace("\n", ", "),
        work_address=str(fake.address()).replace("\n", ", ") if has_work else "",
        birthday=_birthday(fake) if rng.random() < 0.4 else "",
    )


def make_people(fake: Faker, rng: random.Random) -> list[Person]:
    """:data:`CONTACTS` people, of whom ``LOOKALIKE_GROUPS`` x 3 form look-alike groups."""
    used_phones: set[str] = set()
    used_mail: set[str] = set()
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < CONTACTS - 2 * LOOKALIKE_GROUPS:
        name = f"{fake.first_name()} {fake.last_name()}"
        if name not in seen:
            seen.add(name)
            names.append(name)
    for base in names[:LOOKALIKE_GROUPS]:
        first, last = base.split(" ", 1)
        variants = [
            f"{first} {_respell(last, rng)}",
            f"{first} {fake.random_uppercase_letter()}. {last}",
        ]
        for variant in variants:
            while variant in seen:
                variant = f"{first} {_respell(variant.split()[-1], rng)}"
            seen.add(variant)
            names.append(variant)
    people = [_person(fake, rng, name, used_phones, used_mail) for name in names]
    rng.shuffle(people)  # look-alikes are not neighbours by id
    return people


def make_vendors(fake: Faker, rng: random.Random) -> list[Vendor]:
    return [
        Vendor(
            name, str(fake.address()).replace("\n", ", "), prefix, round(rng.uniform(25, 240), 2)
        )
        for name, prefix in VENDORS
    ]
