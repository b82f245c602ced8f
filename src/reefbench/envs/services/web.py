"""What every app's pages share: login, rendering, notices, form parsing.

Pages are server-rendered Jinja2 templates with plain HTML forms (post, then redirect), so
they work the same in a phone viewport and a desktop window, need no JavaScript, and give
accessibility trees and Set-of-Marks real buttons, labels and headings to name.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from starlette.datastructures import FormData

from reefbench.envs.services.attribution import CLIENT_KEY_HEADER, DESKTOP, check_client
from reefbench.envs.services.store import Store, get_setting, now

SESSION_COOKIE = "reef_session"
TEMPLATES_DIR = Path(__file__).with_name("templates")
STATIC_DIR = Path(__file__).with_name("static")

# (path, name, one-letter badge): the launcher on / and the app bar on every page.
APPS: tuple[tuple[str, str, str], ...] = (
    ("mail", "Mail", "M"),
    ("calendar", "Calendar", "C"),
    ("contacts", "Contacts", "P"),
    ("tasks", "Tasks", "T"),
    ("notes", "Notes", "N"),
    ("files", "Files", "F"),
    ("gallery", "Gallery", "I"),
    ("messages", "Messages", "S"),
    ("maps", "Maps", "G"),
    ("clock", "Clock", "A"),
    ("settings", "Settings", "O"),
)

templates = Jinja2Templates(directory=str(TEMPLATES_DIR))


@dataclass
class Services:
    """Per-server state the routes need (stored on ``app.state.services``).

    ``sessions`` maps each signed-in session to the client it was issued to, and
    ``client_keys`` each device's secret key to its client (see
    :mod:`~reefbench.envs.services.attribution`): changes are attributed from these, never from
    anything a request says about itself.
    """

    store: Store
    token: str
    username: str
    password: str
    sessions: dict[str, str] = field(default_factory=dict)
    client_keys: dict[str, str] = field(default_factory=dict)

    def new_session(self, client: str = DESKTOP) -> str:
        session = secrets.token_urlsafe(24)
        self.sessions[session] = check_client(client)
        return session

    def client_key(self, client: str) -> str:
        """The secret key a device's browser sends so that its sign-ins count as ``client``."""
        check_client(client)
        for key, owner in self.client_keys.items():
            if owner == client:
                return key
        key = secrets.token_urlsafe(24)
        self.client_keys[key] = client
        return key

    def client_signing_in(self, request: Request) -> str:
        """Who a login form post comes from: the client whose key the request carries,
        else the desktop (a program on the computer)."""
        return self.client_keys.get(request.headers.get(CLIENT_KEY_HEADER, ""), DESKTOP)


class LoginRequired(Exception):
    """Raised by :func:`require_login`; the app turns it into a redirect to /login."""

    def __init__(self, target: str) -> None:
        super().__init__(target)
        self.target = target


def services(request: Request) -> Services:
    found: Services = request.app.state.services
    return found


def store(request: Request) -> Store:
    return services(request).store


def logged_in(request: Request) -> bool:
    return request.cookies.get(SESSION_COOKIE, "") in services(request).sessions


def client_of(request: Request) -> str:
    """The client a signed-in request's changes are attributed to (its session's)."""
    return services(request).sessions.get(request.cookies.get(SESSION_COOKIE, ""), DESKTOP)


async def require_login(request: Request) -> None:
    """Dependency of every UI router: pages need the login session cookie."""
    if not logged_in(request):
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        raise LoginRequired(target)


def safe_next(target: str) -> str:
    """Only same-site paths may follow a login (no open redirect)."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


def render(
    request: Request, template: str, app: str, title: str, status_code: int = 200, **context: Any
) -> HTMLResponse:
    """Render a page with the chrome every page has (app bar, account clock, notice)."""
    with store(request).read() as db:
        current = now(db)
        hour_format = "%H:%M" if get_setting(db, "time_format") == "24h" else "%I:%M %p"
        theme = get_setting(db, "theme")
        account = get_setting(db, "account_name")
    context.update(
        request=request,
        app=app,
        title=title,
        apps=APPS,
        theme=theme,
        account=account,
        now=current,
        now_label=current.strftime(f"%a %d %b %Y, {hour_format}"),
        notice=request.query_params.get("notice", ""),
        hour_format=hour_format,
    )
    return templates.TemplateResponse(request, template, context, status_code=status_code)


def see_other(path: str, notice: str = "", **query: Any) -> RedirectResponse:
    """Redirect after a form post (303), optionally with a notice shown on the next page."""
    params = {k: v for k, v in query.items() if v not in (None, "")}
    if notice:
        params["notice"] = notice
    sep = "&" if "?" in path else "?"
    return RedirectResponse(path + (sep + urlencode(params) if params else ""), status_code=303)


def text(form: FormData, name: str, default: str = "") -> str:
    """One text field of a posted form, stripped; uploads and missing fields give default."""
    value = form.get(name)
    return value.strip() if isinstance(value, str) else default


def checked(form: FormData, name: str) -> bool:
    return form.get(name) is not None


def ints(form: FormData, name: str) -> list[int]:
    """All values of a repeated field that are integers (e.g. ticked attachments)."""
    return [int(v) for v in form.getlist(name) if isinstance(v, str) and v.isdigit()]
