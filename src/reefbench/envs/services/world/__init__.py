"""A lived-in account built from a seed: mail, contacts, calendar, tasks, notes, messages, files.

``account_world(seed)`` returns a prepared SQLite file (built once per seed into the world
cache, :mod:`reefbench.environments.worlds`); the services' ``load_world`` copies it over
the account with SQLite's backup API, so a task on a world with hundreds of rows resets as
fast as an empty one. Everything is drawn from ``Faker`` and ``random.Random`` seeded with
the seed, in a fixed order, so the same seed (and Faker release) gives the same rows.

The world's clock is :data:`WORLD_NOW`; the data spans the months around it. A task that
needs another "today" sets it after loading the world.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime
from pathlib import Path

from reefbench.environments.worlds import WORLD_NOW, cached, check_seed

__all__ = ["WORLD_NOW", "account_world", "build_account"]


def build_account(seed: int, path: Path) -> None:
    """Generate the account of world ``seed`` into a new SQLite file at ``path``."""
    from faker import Faker

    from reefbench.envs.services import contacts
    from reefbench.envs.services.attribution import CHANGES_TABLE
    from reefbench.envs.services.store import Store, set_setting
    from reefbench.envs.services.world import agenda, mailbox
    from reefbench.envs.services.world.people import make_people, make_vendors

    check_seed(seed)
    fake = Faker("en_GB")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    now = datetime.fromisoformat(WORLD_NOW)
    store = Store()
    try:
        with store.write() as db:
            set_setting(db, "now", WORLD_NOW)
            people = make_people(fake, rng)
            vendors = make_vendors(fake, rng)
            for person in people:
                contacts.add_contact(
                    db,
                    person.name,
                    phone=person.mobile,
                    email=person.email,
                    address=person.address,
                    company=person.company,
                    birthday=person.birthday,
                    work_phone=person.work_phone,
                    work_email=person.work_email,
                    work_address=person.work_address,
                )
            mailbox.build_mailbox(db, fake, rng, people, vendors, now)
            agenda.build_calendar(db, fake, rng, people, now)
            agenda.build_tasks(db, rng, people, now)
            agenda.build_notes(db, fake, rng)
            agenda.build_messages(db, fake, rng, people, now)
            agenda.build_files(db, fake, rng, vendors, now)
            # The world is where the task starts, like the defaults: nobody "changed" it.
            db.execute(f"DELETE FROM {CHANGES_TABLE}")
        target = sqlite3.connect(path)
        try:
            store.db.backup(target)
        finally:
            target.close()
    finally:
        store.close()


def _faker_release() -> str:
    from faker import VERSION

    return str(VERSION)


def account_world(seed: int) -> Path:
    """The prepared account database of world ``seed`` (built on first use)."""

    def build(path: Path) -> None:
        build_account(seed, path)

    # Faker's data changes between releases: each release gets its own cached worlds. The
    # rows are written through the apps' own functions, so their code is part of the key.
    apps = Path(__file__).resolve().parent.parent
    return cached(f"account-faker{_faker_release()}", check_seed(seed), build, [apps])
