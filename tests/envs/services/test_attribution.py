"""Every change to the account records the client that made it, decided by the server.

A device's session (issued by the harness, or signed in through the login form with the
device's secret key) attributes its changes to that device; nothing a request says about
itself (a header naming a client, a made-up key) moves a change to another client.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from reefbench.envs.services import ServicesEnvironment
from reefbench.envs.services import evaluators as ev
from reefbench.envs.services.attribution import CLIENT_KEY_HEADER
from reefbench.envs.services.login import DEFAULT_PASSWORD, DEFAULT_USERNAME

pytestmark = pytest.mark.integration


def _as(account: ServicesEnvironment, client: str) -> httpx.Client:
    """An HTTP client holding the session the harness issues to ``client``."""
    cookie = account.session_cookie(client)
    return httpx.Client(base_url=account.url, cookies={cookie["name"]: cookie["value"]})


@contextmanager
def _signed_in(account: ServicesEnvironment, headers: dict[str, str]) -> Iterator[httpx.Client]:
    """An HTTP client that signs in through the login form, sending ``headers`` throughout."""
    with httpx.Client(base_url=account.url, headers=headers) as web:
        form = {"username": DEFAULT_USERNAME, "password": DEFAULT_PASSWORD, "next": "/"}
        assert web.post("/login", data=form).status_code == 303
        yield web


def _add_contact(web: httpx.Client, name: str, phone: str = "+44 20 7946 0101") -> None:
    response = web.post("/contacts/new", data={"name": name, "phone": phone})
    assert response.status_code == 303, response.text


def _changes(account: ServicesEnvironment, table: str) -> list[dict[str, Any]]:
    return [c for c in account.rows("changes") if c["tbl"] == table]


def _contact_clients(account: ServicesEnvironment) -> dict[str, list[str]]:
    clients: dict[str, list[str]] = {}
    for change in _changes(account, "contacts"):
        name = json.loads(change["data"])["name"]
        clients.setdefault(name, []).append(change["client"])
    return clients


def test_setup_writes_are_attributed_to_setup(account: ServicesEnvironment) -> None:
    account.call("add_contact", name="Ana Ruiz", phone="+44 20 7946 0101")
    assert _contact_clients(account) == {"Ana Ruiz": ["setup"]}


@pytest.mark.parametrize("client", ["phone", "browser", "desktop"])
def test_a_session_changes_as_the_client_it_was_issued_to(
    account: ServicesEnvironment, client: str
) -> None:
    with _as(account, client) as web:
        _add_contact(web, "Ana Ruiz")
    assert _contact_clients(account) == {"Ana Ruiz": [client]}
    (change,) = _changes(account, "contacts")
    assert change["op"] == "insert" and json.loads(change["data"])["phone"] == "+44 20 7946 0101"


def test_signing_in_with_a_device_key_counts_as_that_device(
    account: ServicesEnvironment,
) -> None:
    with _signed_in(account, account.client_headers("phone")) as web:
        _add_contact(web, "Phone Person")
    with _signed_in(account, account.client_headers("browser")) as web:
        _add_contact(web, "Browser Person")
    with _signed_in(account, {}) as web:  # curl from the desktop's terminal
        _add_contact(web, "Desktop Person")
    assert _contact_clients(account) == {
        "Phone Person": ["phone"],
        "Browser Person": ["browser"],
        "Desktop Person": ["desktop"],
    }


def test_a_forged_header_changes_nothing(account: ServicesEnvironment) -> None:
    # The agent has a terminal: it can send any header, but not a key it never saw.
    for forged in ("phone", "browser", "setup", "not-a-key"):
        with _signed_in(account, {CLIENT_KEY_HEADER: forged, "X-Reef-Client": forged}) as web:
            _add_contact(web, f"Forged {forged}")
    # Nor does a real key sent with a session issued to someone else: keys count at sign-in.
    with _as(account, "desktop") as web:
        web.headers.update(account.client_headers("phone"))
        _add_contact(web, "Desktop with a key")
    clients = _contact_clients(account)
    assert set(clients) == {
        "Forged phone",
        "Forged browser",
        "Forged setup",
        "Forged not-a-key",
    } | {"Desktop with a key"}
    assert all(found == ["desktop"] for found in clients.values()), clients


def test_edits_and_deletes_are_logged_but_unchanged_saves_are_not(
    account: ServicesEnvironment,
) -> None:
    contact_id = account.call("add_contact", name="Ana Ruiz", phone="+44 20 7946 0101")
    with _as(account, "phone") as web:
        form = {"name": "Ana Ruiz", "phone": "+44 20 7946 0101"}
        assert web.post(f"/contacts/{contact_id}/edit", data=form).status_code == 303
        assert [c["op"] for c in _changes(account, "contacts")] == ["insert"]
        form["phone"] = "+44 20 7946 0999"
        assert web.post(f"/contacts/{contact_id}/edit", data=form).status_code == 303
        assert web.post(f"/contacts/{contact_id}/delete").status_code == 303
    logged = [(c["client"], c["op"], c["row_id"]) for c in _changes(account, "contacts")]
    assert logged == [
        ("setup", "insert", contact_id),
        ("phone", "update", contact_id),
        ("phone", "delete", contact_id),
    ]


def test_reset_returns_the_log_to_the_seed(account: ServicesEnvironment) -> None:
    with _as(account, "browser") as web:
        _add_contact(web, "Ana Ruiz")
    assert _changes(account, "contacts")
    account.reset()
    assert _changes(account, "contacts") == []


def test_unknown_clients_are_refused(account: ServicesEnvironment) -> None:
    with pytest.raises(Exception, match="client must be one of"):
        account.session_cookie("tablet")
    with pytest.raises(Exception, match="client must be one of"):
        account.client_headers("setup")  # only the harness writes as setup


# ----------------------------------------------------------------- evaluators with by=
@pytest.mark.parametrize("client", ["phone", "browser", "desktop"])
def test_contact_has_by_accepts_only_that_client(account: ServicesEnvironment, client: str) -> None:
    check = ev.contact_has(name="Ana Ruiz", field="phone", value="+44 20 7946 0101", by=client)
    others = [c for c in ("phone", "browser", "desktop") if c != client]
    with _as(account, others[0]) as web:
        _add_contact(web, "Ana Ruiz")
    wrong = check.evaluate(account)
    assert not wrong.success and wrong.progress == pytest.approx(2 / 3)
    assert ev._WHERE[client] in wrong.message
    with _as(account, client) as web:
        _add_contact(web, "Ana Ruiz")
    assert check.evaluate(account).success
    # Without by=, any client (setup included) counts, as before.
    assert ev.contact_has(name="Ana Ruiz").evaluate(account).success


def test_by_refuses_what_setup_seeded(account: ServicesEnvironment) -> None:
    account.call("add_contact", name="Ana Ruiz", phone="+44 20 7946 0101")
    assert ev.contact_has(name="Ana Ruiz").evaluate(account).success
    assert not ev.contact_has(name="Ana Ruiz", by="phone").evaluate(account).success


def test_an_edit_by_the_client_counts_for_a_row_it_did_not_create(
    account: ServicesEnvironment,
) -> None:
    contact_id = account.call("add_contact", name="Ana Ruiz", phone="+44 20 7946 0101")
    check = ev.contact_has(name="Ana Ruiz", field="company", value="Reef", by="phone")
    with _as(account, "phone") as web:
        form = {"name": "Ana Ruiz", "phone": "+44 20 7946 0101", "company": "Reef"}
        assert web.post(f"/contacts/{contact_id}/edit", data=form).status_code == 303
    assert check.evaluate(account).success


def test_a_checklist_item_attributes_its_note(account: ServicesEnvironment) -> None:
    note_id = account.call("add_note", title="Shopping", body="")
    check = ev.note_contains(text="milk", title="Shopping", by="browser")
    with _as(account, "phone") as web:
        assert web.post(f"/notes/{note_id}/items/new", data={"text": "milk"}).status_code == 303
    assert not check.evaluate(account).success
    assert ev.note_contains(text="milk", title="Shopping", by="phone").evaluate(account).success


def test_setting_equals_by(account: ServicesEnvironment) -> None:
    check = ev.setting_equals(key="theme", value="dark", by="browser")
    with _as(account, "phone") as web:
        assert web.post("/settings", data={"theme": "dark"}).status_code == 303
    wrong = check.evaluate(account)
    assert not wrong.success and "not made in the desktop browser" in wrong.message
    with _as(account, "browser") as web:
        assert web.post("/settings", data={"theme": "light"}).status_code == 303
        assert web.post("/settings", data={"theme": "dark"}).status_code == 303
    assert check.evaluate(account).success


def test_by_names_a_client_or_nothing() -> None:
    with pytest.raises(Exception, match="by"):
        ev.mail_sent(to="a@x.test", by="tablet")
