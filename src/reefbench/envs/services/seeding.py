"""Setup actions: put a task's seed into the shared account.

Tasks list them in ``setup`` (routed to the services environment); they run after the
environment's reset, before the agent starts. Each returns a short confirmation and raises
:class:`~reefbench.errors.ActionFailed` with the server's reason when the data is invalid
(a malformed date, a missing list).
"""

from __future__ import annotations

from reefbench.actions.spec import action
from reefbench.environments.contract import Environment
from reefbench.environments.worlds import WorldSeed
from reefbench.envs.services.environment import services_of


@action
def load_world(seed: WorldSeed, env: Environment) -> str:
    """Replace the account with a lived-in world built from a seed: about 360 mails in
    several folders (threads, replies, attachments), 150 contacts with look-alike names,
    200 events over six months, task lists, notes, conversations and files. The world's
    clock is 2026-03-16 09:00. It must come first in a task's setup (it replaces the whole
    account); later setup actions add to it.

    Args:
        seed: Which world (the same seed always builds the same one).
    """
    result = services_of(env).load_world(seed)
    return f"loaded world {seed}; now is {result['now']}"


@action
def set_now(now: str, env: Environment) -> str:
    """Fix the account's clock; every app shows this date and time.

    Args:
        now: Date and time, e.g. "2024-06-03T09:00".
    """
    return f"now is {services_of(env).call('set_now', now=now)}"


@action
def set_today(date: str, env: Environment) -> str:
    """Fix the account's date, keeping the time of day.

    Args:
        date: The date, e.g. "2024-06-03".
    """
    return f"now is {services_of(env).call('set_today', date=date)}"


@action
def set_setting(key: str, value: str, env: Environment) -> str:
    """Change an account setting.

    Args:
        key: One of account_name, signature, time_format (24h/12h), week_start
            (monday/sunday), theme (light/dark), default_calendar_view (month/week/day),
            distance_unit (km/mi), timezone, account_email, account_phone.
        value: The new value.
    """
    services_of(env).call("set_setting", key=key, value=value)
    return f"{key} = {value}"


@action
def add_contact(
    name: str,
    env: Environment,
    phone: str = "",
    email: str = "",
    address: str = "",
    company: str = "",
    birthday: str = "",
    notes: str = "",
) -> str:
    """Add a person to Contacts.

    Args:
        name: Full name, e.g. "John Lauphin".
        phone: Phone number.
        email: Email address.
        address: Postal address.
        company: Company.
        birthday: Birthday as YYYY-MM-DD.
        notes: Free text.
    """
    contact_id = services_of(env).call(
        "add_contact",
        name=name,
        phone=phone,
        email=email,
        address=address,
        company=company,
        birthday=birthday,
        notes=notes,
    )
    return f"added contact {name} (id {contact_id})"


@action
def add_mail(
    sender: str,
    subject: str,
    env: Environment,
    body: str = "",
    to: str = "",
    date: str = "",
    folder: str = "inbox",
    read: bool = False,
    attachments: dict[str, str] | None = None,
) -> str:
    """Put a message into the mailbox (received mail in the inbox by default).

    Args:
        sender: Sender's address.
        subject: Subject line.
        body: Message text.
        to: Recipients (comma separated); the account's own address by default.
        date: When it was sent, "YYYY-MM-DDTHH:MM"; the account's now by default.
        folder: inbox, sent, archive, trash, or a folder of one's own (e.g. "Receipts").
        read: Whether it is already read.
        attachments: Attached text files, file name -> content.
    """
    mail_id = services_of(env).call(
        "add_mail",
        sender=sender,
        subject=subject,
        body=body,
        to=to,
        date=date,
        folder=folder,
        read=read,
        attachments=attachments or {},
    )
    return f"added mail {subject!r} (id {mail_id})"


@action
def add_event(
    title: str,
    date: str,
    env: Environment,
    start: str = "",
    end: str = "",
    place: str = "",
    description: str = "",
) -> str:
    """Add a calendar event; without a start time it is an all-day event.

    Args:
        title: Event title.
        date: Day, "YYYY-MM-DD".
        start: Start time "HH:MM" (24-hour), empty for all day.
        end: End time "HH:MM".
        place: Where it happens.
        description: Details.
    """
    event_id = services_of(env).call(
        "add_event",
        title=title,
        date=date,
        start=start,
        end=end,
        place=place,
        description=description,
    )
    return f"added event {title!r} (id {event_id})"


@action
def add_task(
    title: str,
    env: Environment,
    list_name: str = "My Tasks",
    due: str = "",
    completed: bool = False,
) -> str:
    """Add a to-do to a task list (the list is created if needed).

    Args:
        title: The task.
        list_name: Name of the task list.
        due: Due date "YYYY-MM-DD", or empty.
        completed: Whether it is already done.
    """
    task_id = services_of(env).call(
        "add_task", title=title, list_name=list_name, due=due, completed=completed
    )
    return f"added task {title!r} to {list_name} (id {task_id})"


@action
def add_note(
    env: Environment,
    title: str = "",
    body: str = "",
    items: list[str] | None = None,
    checked: list[str] | None = None,
    pinned: bool = False,
) -> str:
    """Add a note: text, or a checklist when items are given.

    Args:
        title: Note title.
        body: Note text.
        items: Checklist items.
        checked: Items (from items) that are already ticked.
        pinned: Pin it to the top.
    """
    note_id = services_of(env).call(
        "add_note", title=title, body=body, items=items, checked=checked, pinned=pinned
    )
    return f"added note {title or body[:20]!r} (id {note_id})"


@action
def add_file(path: str, env: Environment, content: str = "") -> str:
    """Create a text file in Files (missing folders are created).

    Args:
        path: Path such as "Documents/plan.txt".
        content: Text content.
    """
    services_of(env).call("add_file", path=path, content=content)
    return f"added file {path}"


@action
def add_folder(path: str, env: Environment) -> str:
    """Create a folder (and its parents) in Files.

    Args:
        path: Folder path such as "Documents/Trips".
    """
    services_of(env).call("add_folder", path=path)
    return f"added folder {path}"


@action
def add_photo(
    album: str,
    name: str,
    caption: str,
    env: Environment,
    colour: str = "blue",
    shape: str = "circle",
    edits: list[str] | None = None,
) -> str:
    """Put a photo into a gallery album (Files' Photos/<album>, created if missing).

    Args:
        album: Album name such as "Receipts".
        name: File name ending in .png, e.g. "IMG_0412.png".
        caption: Text the photo shows.
        colour: Background colour (red, orange, yellow, green, teal, blue, purple, grey).
        shape: White shape beside the caption (circle, square, triangle).
        edits: How the stored photo is turned ("rotate_left", "rotate_right", "flip"):
            a photo taken sideways.
    """
    services_of(env).call(
        "add_photo",
        album=album,
        name=name,
        caption=caption,
        colour=colour,
        shape=shape,
        edits=edits or [],
    )
    return f"added photo Photos/{album}/{name}"


@action
def set_camera_scene(
    caption: str, env: Environment, colour: str = "blue", shape: str = "circle"
) -> str:
    """Choose what the gallery's camera shows: the next photo taken draws this scene.

    Args:
        caption: Text the photo shows.
        colour: Background colour (red, orange, yellow, green, teal, blue, purple, grey).
        shape: White shape beside the caption (circle, square, triangle).
    """
    services_of(env).call("set_camera_scene", caption=caption, colour=colour, shape=shape)
    return f"the camera shows {caption!r}"


@action
def add_message(
    contact: str,
    text: str,
    env: Environment,
    direction: str = "in",
    date: str = "",
    read: bool = False,
) -> str:
    """Add a text message to a conversation.

    Args:
        contact: A contact's name or a phone number.
        text: Message text.
        direction: "in" (received) or "out" (sent by the user).
        date: "YYYY-MM-DDTHH:MM"; the account's now by default.
        read: Whether a received message is already read.
    """
    services_of(env).call(
        "add_message", contact=contact, text=text, direction=direction, date=date, read=read
    )
    return f"added message with {contact}"


@action
def add_place(
    name: str,
    latitude: float,
    longitude: float,
    env: Environment,
    kind: str = "place",
    address: str = "",
    description: str = "",
) -> str:
    """Add a point of interest that Maps can find (a café, an office).

    Args:
        name: Place name.
        latitude: Latitude in degrees.
        longitude: Longitude in degrees.
        kind: What it is, e.g. "restaurant".
        address: Street address; its last comma-separated part is shown as the area.
        description: Details.
    """
    services_of(env).call(
        "add_place",
        name=name,
        latitude=latitude,
        longitude=longitude,
        kind=kind,
        address=address,
        description=description,
    )
    return f"added place {name}"


@action
def add_alarm(
    time: str, env: Environment, label: str = "", days: str = "", enabled: bool = True
) -> str:
    """Add an alarm to Clock.

    Args:
        time: "HH:MM", 24-hour.
        label: Alarm label.
        days: Repeat days such as "Mon,Wed,Fri"; empty rings once.
        enabled: Whether it is switched on.
    """
    services_of(env).call("add_alarm", time=time, label=label, days=days, enabled=enabled)
    return f"added alarm {time}"


@action
def add_world_clock(city: str, env: Environment) -> str:
    """Add a city to Clock's world clock.

    Args:
        city: City name, e.g. "Tokyo".
    """
    services_of(env).call("add_world_clock", city=city)
    return f"added world clock {city}"


SETUP_ACTIONS = [
    load_world,
    set_now,
    set_today,
    set_setting,
    add_contact,
    add_mail,
    add_event,
    add_task,
    add_note,
    add_file,
    add_folder,
    add_message,
    add_place,
    add_alarm,
    add_world_clock,
]
