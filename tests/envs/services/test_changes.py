"""Side effects on the account: rows added, changed and removed outside what a task may
change are reported, named by the keys the account checkpoints govern."""

from __future__ import annotations

import pytest

from reefbench.actions.spec import ActionCall, action
from reefbench.agents.scripted import ScriptedAgent
from reefbench.envs.services import ServicesEnvironment
from reefbench.envs.services import evaluators as ev
from reefbench.envs.services.mail import send_mail
from reefbench.envs.services.seeding import add_contact
from reefbench.episodes.episode import Episode
from reefbench.tasks.task import ActionStep, Task

pytestmark = pytest.mark.integration


@action
def send(to: str, subject: str, env: ServicesEnvironment) -> str:
    """Send a mail from the account (what the mail app does on "Send").

    Args:
        to: Recipient address.
        subject: Subject line.
    """
    assert env.server is not None and env.server.store is not None
    with env.server.store.write() as db:
        send_mail(db, to=to, subject=subject, body="see you")
    return "sent"


@action
def forget(name: str, env: ServicesEnvironment) -> str:
    """Delete a contact (what the contacts app does on "Delete").

    Args:
        name: The contact's name.
    """
    assert env.server is not None and env.server.store is not None
    with env.server.store.write() as db:
        db.execute("DELETE FROM contacts WHERE name = ?", (name,))
    return "deleted"


def _task() -> Task:
    return Task(
        id="mail-ben",
        instruction='Send Ben a mail with the subject "Lunch".',
        nodes={"mail": ev.mail_sent(to="ben@example.com", subject="Lunch").on("services")},
        setup=[
            ActionStep(env="services", action=add_contact(name="Ada Lovelace", phone="555-0100")),
            ActionStep(env="services", action=add_contact(name="Ben Okafor", phone="555-0101")),
        ],
        extra_actions=[
            ActionStep(env="services", action=send),
            ActionStep(env="services", action=forget),
        ],
    )


def _send(to: str, subject: str) -> ActionCall:
    return ActionCall(env="services", name="send", arguments={"to": to, "subject": subject})


def _forget(name: str) -> ActionCall:
    return ActionCall(env="services", name="forget", arguments={"name": name})


def test_the_asked_change_alone_is_no_side_effect(account: ServicesEnvironment) -> None:
    agent = ScriptedAgent([[_send("ben@example.com", "Lunch")]])
    result = Episode(_task(), agent, {"services": account}).run()
    assert result.termination == "success" and result.side_effects == []


def test_an_extra_mail_and_a_removed_contact_are_side_effects(
    account: ServicesEnvironment,
) -> None:
    turns = [[_send("ada@example.com", "Lunch"), _forget("Ada Lovelace")]]
    turns += [[_send("ben@example.com", "Lunch")]]
    result = Episode(_task(), ScriptedAgent(turns), {"services": account}).run()
    assert result.completed_nodes == ["mail"] and not result.success
    assert result.termination == "side_effects"
    assert result.side_effects == [
        "account: removed contact 'Ada Lovelace'",
        "account: added sent mail 'Lunch' to ada@example.com",
    ]


def test_report_only_keeps_the_success_and_the_record(account: ServicesEnvironment) -> None:
    turns = [[_forget("Ben Okafor"), _send("ben@example.com", "Lunch")]]
    result = Episode(
        _task(), ScriptedAgent(turns), {"services": account}, side_effects="report"
    ).run()
    assert result.success and result.side_effects == ["account: removed contact 'Ben Okafor'"]
    off = Episode(_task(), ScriptedAgent(turns), {"services": account}, side_effects="off").run()
    assert off.success and off.side_effects == []


def test_a_fingerprint_names_the_rows_of_its_key_and_changes_with_them(
    account: ServicesEnvironment,
) -> None:
    ada, ben = "account|contacts:ada lovelace", "account|contacts:ben okafor"
    assert account.state_fingerprint([ada]) == {ada: "absent"}
    account.execute(add_contact(name="Ada Lovelace", phone="555-0100"))
    account.execute(add_contact(name="Ben Okafor", phone="555-0101"))
    held = account.state_fingerprint([ada, ben])
    assert held[ada] not in ("absent", held[ben])
    forget.run(account, name="Ben Okafor")
    now = account.state_fingerprint([ada, ben])
    assert now == {ada: held[ada], ben: "absent"}
