"""The internal state API: what setup actions and evaluators use, never the agent's UI.

Every route needs ``Authorization: Bearer <token>``: no token gives 401, a wrong one 403.
Writes are named operations from a fixed registry (``add_contact``, ``set_now``, ...) with
JSON keyword arguments; nothing is evaluated or unpickled. Reads dump whole tables, which
evaluators filter in Python.
"""

from __future__ import annotations

import base64
import functools
import json
import secrets
from collections.abc import Callable
from typing import Any

import pydantic
from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse

from reefbench.envs.services import (
    calendar,
    clock,
    contacts,
    files,
    gallery,
    mail,
    maps,
    messages,
    notes,
    settings,
    tasks,
)
from reefbench.envs.services.attribution import CLIENT_KEY_HEADER, DESKTOP, DEVICE_CLIENTS
from reefbench.envs.services.store import DUMPABLE, StoreError
from reefbench.envs.services.web import SESSION_COOKIE, services
from reefbench.errors import ConfigError

MAX_BODY = 32 * 1024 * 1024  # seeded files travel inside the JSON
OPERATIONS: dict[str, Callable[..., Any]] = {
    **settings.OPERATIONS,
    **contacts.OPERATIONS,
    **mail.OPERATIONS,
    **calendar.OPERATIONS,
    **tasks.OPERATIONS,
    **notes.OPERATIONS,
    **files.OPERATIONS,
    **gallery.OPERATIONS,
    **messages.OPERATIONS,
    **maps.OPERATIONS,
    **clock.OPERATIONS,
}


async def require_token(request: Request) -> None:
    header = request.headers.get("authorization", "")
    if not header:
        raise HTTPException(401, "the internal API needs 'Authorization: Bearer <token>'")
    scheme, _, token = header.partition(" ")
    expected = services(request).token
    if scheme.lower() != "bearer" or not secrets.compare_digest(token.encode(), expected.encode()):
        raise HTTPException(403, "wrong token for the internal API")


router = APIRouter(prefix="/internal", dependencies=[Depends(require_token)])


@router.get("/health")
async def health() -> dict[str, bool]:
    return {"ok": True}


@router.post("/reset")
async def reset(request: Request) -> dict[str, bool]:
    services(request).store.reset()
    return {"ok": True}


@router.post("/snapshot")
async def snapshot(request: Request) -> dict[str, bool]:
    services(request).store.snapshot()
    return {"ok": True}


@router.post("/world")
async def load_world(request: Request) -> dict[str, Any]:
    """Replace the account with the seeded world ``{"seed": N}`` (built once, then copied)."""
    from reefbench.envs.services.world import WORLD_NOW, account_world

    body = await _json_body(request, "world")
    seed = body.get("seed") if isinstance(body, dict) else None
    try:
        path = account_world(seed)  # type: ignore[arg-type]  # checked by check_seed
        services(request).store.load(path)
    except (StoreError, ConfigError) as exc:
        raise HTTPException(422, f"load_world: {exc}") from None
    return {"seed": seed, "now": WORLD_NOW}


@router.get("/tables/{table}")
async def table(request: Request, table: str) -> JSONResponse:
    if table not in DUMPABLE:
        raise HTTPException(404, f"unknown table {table!r}; known: {', '.join(DUMPABLE)}")
    rows = services(request).store.dump(table)
    return JSONResponse([{k: _jsonable(v) for k, v in row.items()} for row in rows])


@router.post("/ops/{name}")
async def operation(request: Request, name: str) -> JSONResponse:
    op = OPERATIONS.get(name)
    if op is None:
        raise HTTPException(404, f"unknown operation {name!r}; known: {', '.join(OPERATIONS)}")
    arguments = await _json_body(request, name)
    if not isinstance(arguments, dict):
        raise HTTPException(422, f"{name}: send the arguments as a JSON object")
    try:
        with services(request).store.write() as db:
            result = _checked(name, op)(db, **arguments)
    except StoreError as exc:
        raise HTTPException(422, f"{name}: {exc}") from None
    except pydantic.ValidationError as exc:  # unknown, missing or mistyped arguments
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error.get("loc", ()))
        raise HTTPException(422, f"{name}: {where}: {error.get('msg')}") from None
    return JSONResponse({"result": result})


async def _json_body(request: Request, name: str) -> Any:
    """The request's JSON, refused (413) while it streams in once it passes MAX_BODY."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise HTTPException(413, f"{name}: the body is larger than {MAX_BODY} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HTTPException(413, f"{name}: the body is larger than {MAX_BODY} bytes")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks) or b"null")
    except (ValueError, RecursionError):
        raise HTTPException(422, f"{name}: the body is not valid JSON") from None


@functools.cache
def _checked(name: str, op: Callable[..., Any]) -> Callable[..., Any]:
    # Arguments come from the network: their types are checked against the operation's
    # signature before any of them reaches SQL.
    checked = pydantic.validate_call(config=pydantic.ConfigDict(arbitrary_types_allowed=True))
    return checked(op)


@router.post("/session")
async def session(request: Request) -> dict[str, str]:
    """A logged-in session cookie, for devices that start a task already signed in.

    The body names the client (``{"client": "phone"}``; the desktop by default): what the
    session changes is attributed to it.
    """
    client = _client(await _json_body(request, "session"))
    return {"name": SESSION_COOKIE, "value": services(request).new_session(client)}


@router.post("/client-key")
async def client_key(request: Request) -> dict[str, str]:
    """The header a device's browser sends so that a sign-in through the login form counts
    as that device (``{"client": "browser"}``); only the harness, holding the token, gets it."""
    client = _client(await _json_body(request, "client-key"))
    return {"header": CLIENT_KEY_HEADER, "value": services(request).client_key(client)}


def _client(body: Any) -> str:
    client = body.get("client", DESKTOP) if isinstance(body, dict) else DESKTOP
    if client not in DEVICE_CLIENTS:
        raise HTTPException(422, f"client must be one of {', '.join(DEVICE_CLIENTS)}")
    return str(client)


@router.delete("/sessions")
async def sign_out_everywhere(request: Request) -> dict[str, bool]:
    services(request).sessions.clear()
    return {"ok": True}


def _jsonable(value: Any) -> Any:
    # Blobs (file and attachment contents) travel as {"base64": ...}, never ambiguous text.
    if isinstance(value, bytes):
        return {"base64": base64.b64encode(value).decode("ascii")}
    return value
