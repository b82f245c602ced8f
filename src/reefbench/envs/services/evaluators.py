"""Evaluators over the shared account: read the true state through the internal API.

Each returns an :class:`~reefbench.actions.evaluators.EvalResult` in OmniBench's style: the message
says what was found or what is missing, and ``progress`` is the share of the checkpoint's
criteria met by the closest candidate (a mail to the right person with the wrong subject is
half way). Text criteria match case-insensitively as substrings, with runs of whitespace
collapsed; dates, times and phone numbers match exactly (phone numbers by their digits).

Every evaluator takes ``by``: the client that must have made the change ("phone",
"browser" for the desktop browser, "desktop" for anything else on the computer). The
account's change log (:mod:`~reefbench.envs.services.attribution`) says which clients created or
edited each row during the episode; with ``by`` set, a row another client made does not
count, however right its contents (the "wrong device" near miss).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from email.utils import parseaddr
from typing import Any, Literal

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.environments.contract import Environment
from reefbench.envs.services.attribution import BROWSER, CHANGES_TABLE, DESKTOP, PHONE
from reefbench.envs.services.environment import ServicesEnvironment, services_of
from reefbench.errors import ConfigError

Row = dict[str, Any]
Criterion = tuple[str, Callable[[Row], bool]]
# The client a checkpoint requires ("": any, setup included).
Device = Literal["", "phone", "browser", "desktop"]
_WHERE = {
    PHONE: "made from the phone",
    BROWSER: "made in the desktop browser",
    DESKTOP: "made on the computer outside the browser",
}
# Child rows whose change counts as a change of their parent row (a checklist item edits
# its note, an attachment its mail).
_PARENTS = {"note_items": ("notes", "note_id"), "attachments": ("mail", "mail_id")}


def _made_by(account: ServicesEnvironment, by: str) -> set[tuple[str, Any]]:
    """(table, row id) of every row ``by`` created or edited; settings by their key."""
    made: set[tuple[str, Any]] = set()
    for change in account.rows(CHANGES_TABLE):
        if change["client"] != by or change["op"] == "delete":
            continue
        table, data = change["tbl"], json.loads(change["data"])
        if table in _PARENTS:
            parent, column = _PARENTS[table]
            made.add((parent, data.get(column)))
        elif table == "settings":
            made.add((table, data.get("key")))
        else:
            made.add((table, change["row_id"]))
    return made


def _by_criterion(account: ServicesEnvironment, table: str, by: str, key: str = "id") -> Criterion:
    """The criterion "this row was created or edited by ``by``"."""
    made = _made_by(account, by)

    def made_there(row: Row) -> bool:
        return (table, row[key]) in made

    return (_WHERE[by], made_there)


def _attributed(
    account: ServicesEnvironment, table: str, by: str, criteria: list[Criterion]
) -> list[Criterion]:
    return [*criteria, _by_criterion(account, table, by)] if by else criteria


def _norm(text: Any) -> str:
    return " ".join(str(text or "").split()).casefold()


def _has(haystack: Any, needle: str) -> bool:
    """The text occurs as whole words ("Room 1" is not in "Room 101", nor code 4821 in
    48210), ignoring case and spacing."""
    pattern = rf"(?<!\w){re.escape(_norm(needle))}(?!\w)"
    return re.search(pattern, _norm(haystack)) is not None


def _is_one_of(addresses: Any, address: str) -> bool:
    """``address`` is one of a list of addresses (``a@x, Name <b@y>``), compared whole:
    a field, not a substring (``dana.ruiz@`` is not ``ana.ruiz@``)."""
    wanted = _norm(address)
    parts = str(addresses or "").replace(";", ",").split(",")
    return any(_norm(parseaddr(part)[1]) == wanted for part in parts if part.strip())


def _same_field(value: Any, expected: str) -> bool:
    """Equal ignoring case, spacing and punctuation around the value ("hello JOHN!" is
    the subject "Hello John"; "Re: Hello John" is not)."""
    return _norm(value).strip(_AROUND) == _norm(expected).strip(_AROUND)


_AROUND = " .!?,;:'\"“”"


def _digits(text: Any) -> str:
    return "".join(ch for ch in str(text or "") if ch.isdigit())


def _judge(what: str, rows: Sequence[Row], criteria: Sequence[Criterion]) -> EvalResult:
    """Score every row against the criteria (the first one says which rows are candidates)."""
    if not criteria:
        raise ConfigError("an evaluator needs at least one criterion")
    best: tuple[int, list[str]] | None = None
    for row in rows:
        met = [name for name, test in criteria if test(row)]
        if criteria[0][0] not in met:
            continue
        if best is None or len(met) > best[0]:
            best = (len(met), [name for name, _ in criteria if name not in met])
        if not best[1]:
            return EvalResult(success=True, message=f"found {what}", progress=1.0)
    if best is None:
        return EvalResult(success=False, message=f"no {what}: {criteria[0][0]}", progress=0.0)
    return EvalResult(
        success=False,
        message=f"closest {what} misses: {'; '.join(best[1])}",
        progress=best[0] / len(criteria),
    )


# ---------------------------------------------------------------- state keys
# The account is one store reached from the phone and the browser, so its keys name their
# own scope ("account|"): a contact added on the phone and edited in the browser is one
# piece of state. Rows are keyed by what the task names them by (a title, a name).
def _key(table: str, *parts: Any) -> str:
    return f"account|{table}:" + "/".join(_norm(p) for p in parts)


def _mail_keys(to: str, subject: str = "", **_: Any) -> list[str]:
    return [_key("mail", "sent", to, subject)]


def _event_keys(title: str, **_: Any) -> list[str]:
    return [_key("events", title)]


def _contact_keys(name: str, **_: Any) -> list[str]:
    return [_key("contacts", name)]


def _task_keys(title: str, **_: Any) -> list[str]:
    return [_key("tasks", title)]


def _note_keys(text: str, title: str = "", **_: Any) -> list[str]:
    return [_key("notes", title or text)]


def _file_keys(name: str, folder: str = "", **_: Any) -> list[str]:
    return [_key("files", *[p for p in folder.split("/") if p], name)]


def _path_keys(path: str, **_: Any) -> list[str]:
    return [_key("files", *[p for p in path.split("/") if p])]


def _message_keys(to: str, **_: Any) -> list[str]:
    return [_key("messages", to)]


def _alarm_keys(time: str, **_: Any) -> list[str]:
    return [_key("alarms", time)]


def _timer_keys(**_: Any) -> list[str]:
    return [_key("timers")]


def _clock_keys(city: str, **_: Any) -> list[str]:
    return [_key("world_clocks", city)]


def _setting_keys(key: str, **_: Any) -> list[str]:
    return [_key("settings", key)]


def _directions_keys(**_: Any) -> list[str]:
    return [_key("map_history")]


@evaluator(governs=_mail_keys)
def mail_sent(
    to: str,
    env: Environment,
    subject: str = "",
    body: str = "",
    attachment: str = "",
    by: Device = "",
) -> EvalResult:
    """A mail was sent to an address, with the given subject, body text and attachment.

    Args:
        to: Recipient address: one of the To or Cc addresses (compared whole, ignoring case).
        subject: The subject (compared whole, ignoring case, spacing and punctuation
            around it; empty: any).
        body: Text the body must contain (empty: any).
        attachment: Name of a file that must be attached (empty: any).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    account = services_of(env)
    attached: dict[int, list[str]] = {}
    for att in account.rows("attachments"):
        attached.setdefault(att["mail_id"], []).append(att["name"])
    sent = [m for m in account.rows("mail") if m["folder"] == "sent"]
    criteria: list[Criterion] = [
        (f"sent to {to}", lambda m: _is_one_of(f"{m['recipients']},{m['cc']}", to)),
    ]
    if subject:
        criteria.append((f"subject is {subject!r}", lambda m: _same_field(m["subject"], subject)))
    if body:
        criteria.append((f"body contains {body!r}", lambda m: _has(m["body"], body)))
    if attachment:
        criteria.append(
            (
                f"attachment {attachment!r}",
                lambda m: any(_norm(n) == _norm(attachment) for n in attached.get(m["id"], [])),
            )
        )
    return _judge("sent mail", sent, _attributed(account, "mail", by, criteria))


@evaluator(governs=_event_keys)
def event_exists(
    title: str, env: Environment, date: str = "", time: str = "", place: str = "", by: Device = ""
) -> EvalResult:
    """A calendar event with this title exists, on the date, at the start time, at the place.

    Args:
        title: Text the event title must contain.
        date: "YYYY-MM-DD" (empty: any day).
        time: Start time "HH:MM" (empty: any; "all day" for all-day events).
        place: Text the place must contain (empty: any).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    criteria: list[Criterion] = [(f"title contains {title!r}", lambda e: _has(e["title"], title))]
    if date:
        criteria.append((f"on {date}", lambda e: e["date"] == date))
    if time:
        wanted = time.strip().casefold()
        criteria.append(
            (
                f"at {time}",
                lambda e: bool(e["all_day"]) if wanted == "all day" else _hhmm(e, wanted),
            )
        )
    if place:
        criteria.append((f"place contains {place!r}", lambda e: _has(e["place"], place)))
    account = services_of(env)
    return _judge("event", account.rows("events"), _attributed(account, "events", by, criteria))


@evaluator(governs=_event_keys)
def event_spans(
    title: str, env: Environment, date: str, time: str, end: str, by: Device = ""
) -> EvalResult:
    """A calendar event with this title on the date, from the start to the end time: where
    the length matters (a half-hour review booked for an hour is another meeting).

    :func:`event_exists` stays as reef-v1 froze it (its verdicts are pinned to its code), so
    the end time is a check of its own.

    Args:
        title: Text the event title must contain.
        date: "YYYY-MM-DD".
        time: Start time "HH:MM".
        end: End time "HH:MM".
        by: The client that must have made the change (as for :func:`event_exists`).
    """
    criteria: list[Criterion] = [
        (f"title contains {title!r}", lambda e: _has(e["title"], title)),
        (f"on {date}", lambda e: e["date"] == date),
        (f"at {time}", lambda e: _hhmm(e, time.strip())),
        (f"ending at {end}", lambda e: _hhmm(e, end.strip(), "end_time")),
    ]
    account = services_of(env)
    return _judge("event", account.rows("events"), _attributed(account, "events", by, criteria))


def _hhmm(event: Row, wanted: str, field: str = "start_time") -> bool:
    parts = wanted.split(":")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return False
    return bool(event[field] == f"{int(parts[0]):02d}:{int(parts[1]):02d}")


@evaluator(governs=_contact_keys)
def contact_has(
    name: str, env: Environment, field: str = "", value: str = "", by: Device = ""
) -> EvalResult:
    """A contact with this name exists and (optionally) a field holds a value.

    Args:
        name: The contact's full name (case-insensitive, exact).
        field: phone, email, address, company, birthday or notes (empty: just exists).
        value: Text the field must contain (phone numbers compare by digits, email
            addresses whole: a look-alike ``dana@`` is not ``ana@``).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    criteria: list[Criterion] = [
        (f"contact named {name!r}", lambda c: _norm(c["name"]) == _norm(name))
    ]
    if field:
        if field not in ("phone", "email", "address", "company", "birthday", "notes"):
            return EvalResult(success=False, message=f"contacts have no field {field!r}")
        if field == "phone":
            criteria.append((f"phone {value}", lambda c: _digits(c["phone"]) == _digits(value)))
        elif field == "email":
            criteria.append((f"email {value}", lambda c: _is_one_of(c["email"], value)))
        else:
            criteria.append((f"{field} contains {value!r}", lambda c: _has(c[field], value)))
    account = services_of(env)
    return _judge(
        "contact", account.rows("contacts"), _attributed(account, "contacts", by, criteria)
    )


def _task_rows(env: Environment) -> list[Row]:
    account = services_of(env)
    names = {row["id"]: row["name"] for row in account.rows("task_lists")}
    return [{**t, "list": names.get(t["list_id"], "")} for t in account.rows("tasks")]


@evaluator(governs=_task_keys)
def task_exists(
    title: str, env: Environment, list_name: str = "", due: str = "", by: Device = ""
) -> EvalResult:
    """A task with this title is in the list (any list if empty), due on the date.

    Args:
        title: Text the task title must contain.
        list_name: Name of the task list (empty: any).
        due: Due date "YYYY-MM-DD" (empty: any).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    criteria: list[Criterion] = [(f"task {title!r}", lambda t: _has(t["title"], title))]
    if list_name:
        criteria.append((f"in list {list_name!r}", lambda t: _norm(t["list"]) == _norm(list_name)))
    if due:
        criteria.append((f"due {due}", lambda t: t["due"] == due))
    account = services_of(env)
    return _judge("task", _task_rows(env), _attributed(account, "tasks", by, criteria))


@evaluator(governs=_task_keys)
def task_completed(
    title: str, env: Environment, list_name: str = "", completed: bool = True, by: Device = ""
) -> EvalResult:
    """A task with this title is marked complete (or, with completed=False, not complete).

    Args:
        title: Text the task title must contain.
        list_name: Name of the task list (empty: any).
        completed: The state the task must be in.
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    criteria: list[Criterion] = [(f"task {title!r}", lambda t: _has(t["title"], title))]
    if list_name:
        criteria.append((f"in list {list_name!r}", lambda t: _norm(t["list"]) == _norm(list_name)))
    state = "complete" if completed else "not complete"
    criteria.append((state, lambda t: bool(t["completed"]) == completed))
    account = services_of(env)
    return _judge("task", _task_rows(env), _attributed(account, "tasks", by, criteria))


@evaluator(governs=_note_keys)
def note_contains(text: str, env: Environment, title: str = "", by: Device = "") -> EvalResult:
    """A note (not archived) contains the text; with a title, the note has exactly that
    title and the text is in its body or checklist items (title and text are fields: a
    note with the two swapped does not count).

    Args:
        text: Text the note must contain.
        title: The note's title, compared ignoring case and spacing (empty: any note, and
            the text may be in the title too).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    account = services_of(env)
    items: dict[int, list[str]] = {}
    for item in account.rows("note_items"):
        items.setdefault(item["note_id"], []).append(item["text"])
    notes = [
        {
            **n,
            "content": " \n".join([n["body"], *items.get(n["id"], [])]),
            "all": " \n".join([n["title"], n["body"], *items.get(n["id"], [])]),
        }
        for n in account.rows("notes")
        if not n["archived"]
    ]
    criteria: list[Criterion] = []
    if title:
        criteria.append((f"note titled {title!r}", lambda n: _same_field(n["title"], title)))
        criteria.append((f"text contains {text!r}", lambda n: _has(n["content"], text)))
    else:
        criteria.append((f"contains {text!r}", lambda n: _has(n["all"], text)))
    return _judge("note", notes, _attributed(account, "notes", by, criteria))


def _file_rows(env: Environment) -> list[Row]:
    rows = services_of(env).rows("files")
    by_id = {r["id"]: r for r in rows}

    def path(row: Row) -> str:
        parts = [row["name"]]
        while row["parent_id"] is not None:
            row = by_id[row["parent_id"]]
            parts.append(row["name"])
        return "/".join(reversed(parts))

    return [{**r, "path": path(r)} for r in rows]


def _text(content: Any) -> str:
    if isinstance(content, bytes):
        return content.decode("utf-8", errors="replace")
    return str(content or "")


@evaluator(governs=_file_keys)
def file_in_folder(
    name: str, env: Environment, folder: str = "", content: str = "", by: Device = ""
) -> EvalResult:
    """A file with this name is in the folder and contains the text.

    Args:
        name: File name, e.g. "plan.txt" (case-insensitive).
        folder: Folder path such as "Documents/Trips"; empty means the top level of Files.
        content: Text the file must contain (empty: any content).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    wanted = folder.strip("/")
    criteria: list[Criterion] = [
        (f"file {name!r}", lambda f: not f["is_folder"] and _norm(f["name"]) == _norm(name)),
        (
            f"in folder {wanted or 'My Drive'!r}",
            lambda f: _norm(f["path"].rpartition("/")[0]) == _norm(wanted),
        ),
    ]
    if content:
        criteria.append((f"contains {content!r}", lambda f: _has(_text(f["content"]), content)))
    account = services_of(env)
    return _judge("file", _file_rows(env), _attributed(account, "files", by, criteria))


@evaluator(governs=_path_keys)
def folder_exists(path: str, env: Environment, by: Device = "") -> EvalResult:
    """A folder exists at this path in Files.

    Args:
        path: Folder path such as "Documents/Trips" (case-insensitive).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    criteria: list[Criterion] = [
        (f"folder {path!r}", lambda f: bool(f["is_folder"]) and _norm(f["path"]) == _norm(path))
    ]
    account = services_of(env)
    return _judge("folder", _file_rows(env), _attributed(account, "files", by, criteria))


@evaluator(governs=_path_keys)
def file_shared(path: str, env: Environment, by: Device = "") -> EvalResult:
    """The file at this path has a share link.

    Args:
        path: File path such as "Documents/plan.txt" (case-insensitive).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    criteria: list[Criterion] = [
        (f"file {path!r}", lambda f: _norm(f["path"]) == _norm(path.strip("/"))),
        ("shared by link", lambda f: bool(f["share_token"])),
    ]
    account = services_of(env)
    return _judge("file", _file_rows(env), _attributed(account, "files", by, criteria))


@evaluator(governs=_message_keys)
def message_sent(to: str, env: Environment, text: str = "", by: Device = "") -> EvalResult:
    """A text message was sent to a contact (by name) or phone number, containing the text.

    Args:
        to: Contact name or phone number.
        text: Text the message must contain (empty: any).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    account = services_of(env)
    numbers = {_digits(to)} - {""}
    for contact in account.rows("contacts"):
        if _norm(contact["name"]) == _norm(to) and _digits(contact["phone"]):
            numbers.add(_digits(contact["phone"]))

    def to_peer(m: Row) -> bool:
        return (
            _digits(m["peer"]) in numbers if _digits(m["peer"]) else _norm(m["peer"]) == _norm(to)
        )

    sent = [m for m in account.rows("messages") if m["direction"] == "out"]
    criteria: list[Criterion] = [(f"message to {to}", to_peer)]
    if text:
        criteria.append((f"text contains {text!r}", lambda m: _has(m["body"], text)))
    return _judge("sent message", sent, _attributed(account, "messages", by, criteria))


@evaluator(governs=_alarm_keys)
def alarm_set(
    time: str, env: Environment, label: str = "", enabled: bool = True, by: Device = ""
) -> EvalResult:
    """An alarm is set for this time (and label), switched on (or off).

    Args:
        time: "HH:MM", 24-hour.
        label: Text the label must contain (empty: any).
        enabled: Whether the alarm must be on.
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    criteria: list[Criterion] = [
        (f"alarm at {time}", lambda a: _hhmm({"start_time": a["time"]}, time))
    ]
    if label:
        criteria.append((f"label contains {label!r}", lambda a: _has(a["label"], label)))
    criteria.append(("on" if enabled else "off", lambda a: bool(a["enabled"]) == enabled))
    account = services_of(env)
    return _judge("alarm", account.rows("alarms"), _attributed(account, "alarms", by, criteria))


@evaluator(governs=_timer_keys)
def timer_set(seconds: int, env: Environment, label: str = "", by: Device = "") -> EvalResult:
    """A timer of this duration exists.

    Args:
        seconds: Duration in seconds (5 minutes = 300).
        label: Text the label must contain (empty: any).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    criteria: list[Criterion] = [(f"timer of {seconds} s", lambda t: t["seconds"] == seconds)]
    if label:
        criteria.append((f"label contains {label!r}", lambda t: _has(t["label"], label)))
    account = services_of(env)
    return _judge("timer", account.rows("timers"), _attributed(account, "timers", by, criteria))


@evaluator(governs=_clock_keys)
def world_clock_added(city: str, env: Environment, by: Device = "") -> EvalResult:
    """The world clock shows this city.

    Args:
        city: City name, e.g. "Tokyo".
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    criteria: list[Criterion] = [
        (f"city {city!r}", lambda c: _norm(c["city"].split(",")[0]) == _norm(city))
    ]
    account = services_of(env)
    return _judge(
        "world clock",
        account.rows("world_clocks"),
        _attributed(account, "world_clocks", by, criteria),
    )


@evaluator(governs=_setting_keys)
def setting_equals(key: str, value: str, env: Environment, by: Device = "") -> EvalResult:
    """An account setting has this value.

    Args:
        key: Setting name, e.g. "theme".
        value: Expected value (case-insensitive).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    account = services_of(env)
    settings = account.client.settings()
    if key not in settings:
        return EvalResult(success=False, message=f"there is no setting {key!r}", progress=0.0)
    actual = settings[key]
    ok = _norm(actual) == _norm(value)
    if ok and by:
        where, made_there = _by_criterion(account, "settings", by, key="key")
        if not made_there({"key": key}):
            return EvalResult(
                success=False, message=f"{key} is {actual!r}, but not {where}", progress=0.5
            )
    return EvalResult(
        success=ok,
        message=f"{key} is {actual!r}" + ("" if ok else f", expected {value!r}"),
        progress=1.0 if ok else 0.0,
    )


@evaluator(governs=_directions_keys)
def directions_requested(
    origin: str, destination: str, env: Environment, mode: str = "", by: Device = ""
) -> EvalResult:
    """Maps showed directions from the origin to the destination.

    Args:
        origin: Text the start location must contain (as typed or as resolved).
        destination: Text the destination must contain.
        mode: driving, cycling or walking (empty: any).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    rows = [r for r in services_of(env).rows("map_history") if r["kind"] == "directions"]
    typed = [(r, *[*r["query"].split(" -> ", 1), ""][:2]) for r in rows]
    candidates = [{**r, "typed_origin": o, "typed_destination": d} for r, o, d in typed]
    criteria: list[Criterion] = [
        (
            f"from {origin!r}",
            lambda r: _has(r["origin"], origin) or _has(r["typed_origin"], origin),
        ),
        (
            f"to {destination!r}",
            lambda r: (
                _has(r["destination"], destination) or _has(r["typed_destination"], destination)
            ),
        ),
    ]
    if mode:
        criteria.append((f"by {mode}", lambda r: r["mode"] == mode))
    account = services_of(env)
    return _judge("directions", candidates, _attributed(account, "map_history", by, criteria))


SERVICE_EVALUATORS = [
    mail_sent,
    event_exists,
    contact_has,
    task_exists,
    task_completed,
    note_contains,
    file_in_folder,
    folder_exists,
    file_shared,
    message_sent,
    alarm_set,
    timer_set,
    world_clock_added,
    setting_equals,
    directions_requested,
]


@evaluator(governs=_path_keys)
def photo_at(
    path: str,
    caption: str,
    env: Environment,
    colour: str = "blue",
    shape: str = "circle",
    edits: list[str] | None = None,
    by: Device = "",
) -> EvalResult:
    """The file at this path in Files is the photo of a scene, pixel for pixel, after the
    phone editor's edits: a renamed copy of the right photo passes, a look-alike, the photo
    without its edit or turned the wrong way does not.

    Args:
        path: File path such as "Photos/Camera/IMG_0001.png" (case-insensitive).
        caption: Text the photo shows.
        colour: Its background colour.
        shape: Its shape (circle, square, triangle).
        edits: The edits made to it, in order ("rotate_left", "rotate_right", "flip").
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    from reefbench.envs.services import photos

    expected = photos.photo_after(photos.Scene(caption, colour, shape), edits or [])

    def same(row: Row) -> bool:
        return (
            isinstance(row["content"], bytes) and photos.same_picture(row["content"], expected)[0]
        )

    what = f"the photo of {caption!r}" + (f" after {', '.join(edits)}" if edits else "")
    return _photo_file(env, path, what, same, by)


def _photo_file(
    env: Environment, path: str, what: str, same: Callable[[Row], bool], by: str
) -> EvalResult:
    """The file at ``path`` in Files passes ``same`` (is the photo ``what`` names), made by
    ``by``: the judgement :func:`photo_at` and :func:`photo_scaled_at` share."""
    criteria: list[Criterion] = [
        (f"file {path!r}", lambda f: not f["is_folder"] and _norm(f["path"]) == _norm(path)),
        (what, same),
    ]
    account = services_of(env)
    return _judge("photo", _file_rows(env), _attributed(account, "files", by, criteria))


@evaluator(governs=_path_keys)
def photo_scaled_at(
    path: str,
    caption: str,
    edits: list[str],
    width: int,
    env: Environment,
    colour: str = "blue",
    shape: str = "circle",
    fmt: str = "JPEG",
    by: Device = "",
) -> EvalResult:
    """The file at this path in Files is the photo of a scene after ``edits``, scaled to
    ``width`` pixels wide (proportions kept) and saved as ``fmt``, compared by brightness
    patches, since a rescaled JPEG is never pixel-exact
    (:func:`reefbench.envs.services.photos.scaled_mismatch`): a photo edited on the computer and
    uploaded back passes, the unedited photo, a look-alike or a wrong turn does not.

    Args:
        path: File path such as "Photos/Edited/IMG_0004.jpg" (case-insensitive).
        caption: Text the photo shows.
        edits: The turns and mirror made to it, in order ("rotate_left", ...).
        width: The asked width in pixels.
        colour: Its background colour.
        shape: Its shape (circle, square, triangle).
        fmt: The format as Pillow names it ("JPEG", "PNG").
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    from reefbench.envs.services import photos

    scene = photos.Scene(caption, colour, shape)

    def same(row: Row) -> bool:
        content = row["content"]
        return isinstance(content, bytes) and not photos.scaled_mismatch(
            content, scene, edits, width, fmt
        )

    what = f"the photo of {caption!r} after {', '.join(edits)}, {width} pixels wide"
    return _photo_file(env, path, what, same, by)


@evaluator(governs=_mail_keys)
def photo_mailed(
    to: str,
    caption: str,
    env: Environment,
    subject: str = "",
    body: str = "",
    colour: str = "blue",
    shape: str = "circle",
    edits: list[str] | None = None,
    by: Device = "",
) -> EvalResult:
    """A mail was sent to an address with the photo of a scene attached, pixel for pixel
    after the edits: the attachment's name does not matter, its picture does.

    Args:
        to: Recipient address (one of To or Cc, compared whole, ignoring case).
        caption: Text the photo shows.
        subject: The subject (compared whole; empty: any).
        body: Text the body must contain (empty: any).
        colour: Its background colour.
        shape: Its shape (circle, square, triangle).
        edits: The edits made to it, in order ("rotate_left", "rotate_right", "flip").
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    from reefbench.envs.services import photos

    expected = photos.photo_after(photos.Scene(caption, colour, shape), edits or [])
    account = services_of(env)
    pictured: set[int] = {
        att["mail_id"]
        for att in account.rows("attachments")
        if isinstance(att["content"], bytes) and photos.same_picture(att["content"], expected)[0]
    }
    sent = [m for m in account.rows("mail") if m["folder"] == "sent"]
    criteria: list[Criterion] = [
        (f"sent to {to}", lambda m: _is_one_of(f"{m['recipients']},{m['cc']}", to)),
    ]
    if subject:
        criteria.append((f"subject is {subject!r}", lambda m: _same_field(m["subject"], subject)))
    if body:
        criteria.append((f"body contains {body!r}", lambda m: _has(m["body"], body)))
    criteria.append(
        (
            f"the photo of {caption!r} attached" + (f" after {', '.join(edits)}" if edits else ""),
            lambda m: m["id"] in pictured,
        )
    )
    return _judge("sent mail", sent, _attributed(account, "mail", by, criteria))


@evaluator(governs=_mail_keys)
def mail_states(
    to: str,
    subject: str,
    facts: Sequence[str],
    env: Environment,
    forbidden: Sequence[str] = (),
    by: Device = "",
) -> EvalResult:
    """A mail was sent to an address with this subject, whose body states every fact
    and none of the forbidden ones (a rubric over the body: the reasoning family's
    "reply with exactly these numbers").

    Args:
        to: Recipient address: one of the To or Cc addresses (compared whole, ignoring case).
        subject: The subject (compared whole, ignoring case, spacing and punctuation
            around it: a reply's is "Re: " and the original subject).
        facts: Phrases the body must contain as whole words; "a|b" accepts either spelling.
        forbidden: Phrases the body must not contain as whole words ("a|b": neither).
        by: The client that must have made the change: "phone", "browser" (the desktop
            browser) or "desktop" (the computer outside the browser); empty: any.
    """
    account = services_of(env)
    sent = [m for m in account.rows("mail") if m["folder"] == "sent"]

    def states(fact: str) -> Callable[[Row], bool]:
        spellings = [s for s in fact.split("|") if s.strip()]

        def said(m: Row) -> bool:
            return any(_has(m["body"], s) for s in spellings)

        return said

    def never(fact: str) -> Callable[[Row], bool]:
        said = states(fact)

        def unsaid(m: Row) -> bool:
            return not said(m)

        return unsaid

    criteria: list[Criterion] = [
        (f"sent to {to}", lambda m: _is_one_of(f"{m['recipients']},{m['cc']}", to)),
        (f"subject is {subject!r}", lambda m: _same_field(m["subject"], subject)),
    ]
    criteria += [(f"body states {fact!r}", states(fact)) for fact in facts]
    criteria += [(f"body does not state {fact!r}", never(fact)) for fact in forbidden]
    return _judge("sent mail", sent, _attributed(account, "mail", by, criteria))
