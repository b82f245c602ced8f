"""The seeded account world: deterministic, big, full of look-alikes, loaded by copy, reset
cleanly, and small changes among its hundreds of rows still seen as side effects."""

from __future__ import annotations

import sqlite3
from collections import Counter
from datetime import date, datetime, tzinfo
from pathlib import Path
from typing import Any

import pytest

from reefbench.actions.spec import ActionCall, action
from reefbench.agents.scripted import ScriptedAgent
from reefbench.envs.services import ServicesEnvironment
from reefbench.envs.services import evaluators as ev
from reefbench.envs.services.mail import send_mail
from reefbench.envs.services.seeding import add_contact, load_world
from reefbench.envs.services.world import WORLD_NOW, account_world, build_account
from reefbench.episodes.episode import Episode
from reefbench.errors import ActionFailed, TaskLoadError
from reefbench.tasks.task import ActionStep, Task
from reefbench.tasks.taskfile import task_from_dict

TABLES = ("contacts", "mail", "attachments", "events", "task_lists", "tasks", "notes",
          "note_items", "messages", "files")  # fmt: skip


def _rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    db = sqlite3.connect(path)
    try:
        return {t: db.execute(f"SELECT * FROM {t} ORDER BY id").fetchall() for t in TABLES}
    finally:
        db.close()


def _near(a: str, b: str) -> bool:
    """Same first name and surnames one edit apart (a middle initial does not count)."""
    (fa, *_, la), (fb, *_, lb) = a.split(), b.split()
    if fa != fb:
        return False
    if len(la) == len(lb):
        return sum(x != y for x, y in zip(la, lb, strict=True)) <= 1
    short, long_ = sorted((la, lb), key=len)
    return len(long_) - len(short) == 1 and any(
        long_[:i] + long_[i + 1 :] == short for i in range(len(long_))
    )


def test_the_same_seed_builds_the_same_rows_and_another_seed_others(tmp_path: Path) -> None:
    build_account(3, tmp_path / "a.sqlite")
    build_account(3, tmp_path / "b.sqlite")
    build_account(4, tmp_path / "c.sqlite")
    first, again, other = (_rows(tmp_path / f"{n}.sqlite") for n in "abc")
    assert first == again
    assert first["contacts"] != other["contacts"] and first["mail"] != other["mail"]


def test_the_world_has_the_volume_issue_18_asks_for() -> None:
    rows = _rows(account_world(7))
    mail = rows["mail"]
    assert len(mail) >= 300
    folders = Counter(m[2] for m in mail)
    assert {"inbox", "sent", "archive", "trash", "Receipts", "Travel"} <= set(folders)
    threads = Counter(m[1] for m in mail)
    assert sum(1 for size in threads.values() if size >= 3) >= 20  # threads with replies
    assert sum(1 for m in mail if m[6].startswith("Re: ")) >= 50
    assert len(rows["attachments"]) >= 60
    assert all(a[2] and len(a[4]) > 0 for a in rows["attachments"])  # names and bytes
    assert len(rows["contacts"]) >= 150
    several = [c for c in rows["contacts"] if c[2] and (c[10] or c[11])]
    assert len(several) >= 75  # a second number or mailbox at work
    events = rows["events"]
    assert len(events) >= 200
    days = sorted(e[2] for e in events)
    assert days[0] <= "2025-11-30" and days[-1] >= "2026-05-01"  # about six months
    assert len(rows["task_lists"]) >= 4 and len(rows["tasks"]) >= 30
    assert any(n[3] == "checklist" for n in rows["notes"]) and len(rows["note_items"]) >= 30
    assert len({m[1] for m in rows["messages"]}) >= 20 and len(rows["files"]) >= 30


def test_look_alikes_are_there_on_purpose() -> None:
    rows = _rows(account_world(7))
    names = [c[1] for c in rows["contacts"]]
    groups = [
        name
        for name in names
        if sum(1 for other in names if other != name and _near(name, other)) >= 2
    ]
    assert len(groups) >= 30  # 15 groups of three near-identical names
    subjects = Counter(m[6] for m in rows["mail"] if m[6].startswith("Your invoice for "))
    assert len(subjects) >= 5 and all(count >= 5 for count in subjects.values())
    senders = {m[3] for m in rows["mail"] if m[6].startswith("Your invoice for ")}
    assert len(senders) >= 5  # several vendors
    titles = Counter(e[1] for e in rows["events"])
    assert titles["Team sync"] >= 20 and titles["Dentist"] >= 2


def test_load_world_replaces_the_account_and_reset_removes_it(
    account: ServicesEnvironment,
) -> None:
    assert load_world(seed=7).run(account).endswith(f"now is {WORLD_NOW}")
    assert len(account.rows("mail")) >= 300
    assert account.settings()["now"] == WORLD_NOW
    account.reset()
    assert account.rows("mail") == [] and account.rows("contacts") == []


def test_reset_restores_the_world_after_an_episode_changed_it(
    account: ServicesEnvironment,
) -> None:
    load_world(seed=7).run(account)
    before = {t: account.rows(t) for t in ("mail", "contacts", "attachments")}
    assert account.server is not None and account.server.store is not None
    with account.server.store.write() as db:
        db.execute("DELETE FROM mail WHERE id IN (SELECT id FROM mail LIMIT 5)")
        db.execute("UPDATE contacts SET name = 'Someone Else' WHERE id = 1")
    account.reset()
    load_world(seed=7).run(account)
    assert {t: account.rows(t) for t in before} == before


def test_load_world_must_come_first(account: ServicesEnvironment) -> None:
    add_contact(name="Ada Lovelace").run(account)
    with pytest.raises(ActionFailed, match="load the world first in a task's setup"):
        load_world(seed=7).run(account)
    assert [c["name"] for c in account.rows("contacts")] == ["Ada Lovelace"]


@pytest.mark.parametrize("seed", [-1, 2**31, "seven"])
def test_a_bad_seed_in_a_task_file_is_a_one_line_error(seed: Any) -> None:
    data = {
        "schema_version": 1,
        "id": "world-bad",
        "instruction": "Read the newest invoice.",
        "nodes": {
            "a": {"evaluator": "reefbench.envs.services.evaluators:mail_sent", "args": {"to": "x"}}
        },
        "setup": [{"env": "services", "action": "reefbench.envs.services.seeding:load_world",
                   "args": {"seed": seed}}],
    }  # fmt: skip
    with pytest.raises(TaskLoadError) as info:
        task_from_dict(data)
    message = str(info.value)
    assert "\n" not in message and "setup[0].args" in message and "seed" in message


@action
def star_first_invoice(env: ServicesEnvironment) -> str:
    """Star the oldest invoice mail (an unasked change).

    Args:
    """
    assert env.server is not None and env.server.store is not None
    with env.server.store.write() as db:
        db.execute(
            "UPDATE mail SET starred = 1 WHERE id = (SELECT min(id) FROM mail "
            "WHERE subject LIKE 'Your invoice for %')"
        )
    return "starred"


@action
def send(to: str, subject: str, env: ServicesEnvironment) -> str:
    """Send a mail from the account.

    Args:
        to: Recipient address.
        subject: Subject line.
    """
    assert env.server is not None and env.server.store is not None
    with env.server.store.write() as db:
        send_mail(db, to=to, subject=subject, body="see you")
    return "sent"


def _task() -> Task:
    return Task(
        id="world-mail",
        instruction='Send Ben a mail with the subject "Lunch".',
        nodes={"mail": ev.mail_sent(to="ben@example.com", subject="Lunch").on("services")},
        setup=[ActionStep(env="services", action=load_world(seed=7))],
        extra_actions=[
            ActionStep(env="services", action=send),
            ActionStep(env="services", action=star_first_invoice),
        ],
    )


def test_one_injected_change_among_the_world_is_a_side_effect(
    account: ServicesEnvironment,
) -> None:
    send_call = ActionCall(
        env="services", name="send", arguments={"to": "ben@example.com", "subject": "Lunch"}
    )
    clean = Episode(_task(), ScriptedAgent([[send_call]]), {"services": account}).run()
    assert clean.termination == "success" and clean.side_effects == []
    star = ActionCall(env="services", name="star_first_invoice")
    dirty = Episode(_task(), ScriptedAgent([[star, send_call]]), {"services": account}).run()
    assert dirty.termination == "side_effects"
    assert len(dirty.side_effects) == 1
    assert dirty.side_effects[0].startswith("account: changed starred of ")
    assert "Your invoice for " in dirty.side_effects[0]


def test_a_seeded_account_loads_a_world_after_every_reset() -> None:
    env = ServicesEnvironment(seed=[add_contact(name="Suite Default")])
    env.start()
    try:
        for _ in range(2):
            env.reset()
            load_world(seed=7).run(env)
            assert len(env.rows("contacts")) >= 150
        env.reset()
        assert [c["name"] for c in env.rows("contacts")] == ["Suite Default"]
    finally:
        env.stop()


def test_another_process_with_another_hash_seed_builds_the_same_rows(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    build_account(11, tmp_path / "here.sqlite")
    code = "import sys, pathlib; from reefbench.envs.services.world import build_account; "
    code += "build_account(11, pathlib.Path(sys.argv[1]))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    there = tmp_path / "there.sqlite"
    subprocess.run([sys.executable, "-c", code, str(there)], env=env, check=True, timeout=120)
    assert _rows(tmp_path / "here.sqlite") == _rows(there)


class _Faker2031(type):
    """Stand-ins for Faker's ``datetime`` and ``date`` that still accept real ones."""

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, cls.__bases__[0])


class _DateTime2031(datetime, metaclass=_Faker2031):
    @classmethod
    def now(cls, tz: tzinfo | None = None) -> datetime:  # type: ignore[override]
        return datetime(2031, 7, 4, 12, tzinfo=tz)


class _Date2031(date, metaclass=_Faker2031):
    @classmethod
    def today(cls) -> date:  # type: ignore[override]
        return date(2031, 7, 4)


def test_a_world_built_on_another_day_has_the_same_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CI froze other task values than the machine that froze the suite: Faker's
    ``date_of_birth`` read the real clock, so a world built a day later differed. Faker's
    clock is the only one the generator reaches (its own dates come from WORLD_NOW)."""
    from faker.providers import date_time

    build_account(11, tmp_path / "today.sqlite")
    monkeypatch.setattr(date_time, "datetime", _DateTime2031)
    monkeypatch.setattr(date_time, "dtdate", _Date2031)
    build_account(11, tmp_path / "later.sqlite")
    assert _rows(tmp_path / "today.sqlite") == _rows(tmp_path / "later.sqlite")
