"""Serve one environment over HTTP (FastAPI): JSON only, token required, loopback by default.

(This module imports FastAPI at import time; it is only imported to serve.)

Every endpoint but ``GET /version`` requires ``Authorization: Bearer <token>``; bodies over
the size limit are refused while they stream in; requests are served one at a time
(environments are not thread-safe); setup steps and evaluators are resolved by import
reference only inside the allowed module prefixes, and only to ``@action``/``@evaluator``
objects. Nothing is unpickled or evaluated.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from reefbench import __version__
from reefbench.actions.evaluators import Evaluator
from reefbench.actions.refs import resolve_ref, target_module
from reefbench.actions.sets import DEFAULT_ACTION_SET
from reefbench.actions.spec import Action
from reefbench.environments.contract import Environment, loggable
from reefbench.envs.remote.protocol import (
    PROTOCOL_VERSION,
    ActionInfo,
    EnvironmentInfo,
    EvaluateReply,
    ObserveReply,
    RefRequest,
    ResetRequest,
    StepReply,
    StepRequest,
    encode_observation,
)
from reefbench.errors import ActionFailed, ConfigError, InvalidAction, WrongEnvironment
from reefbench.plumbing.net import bearer_matches, check_token

DEFAULT_MAX_BODY = 4 * 1024 * 1024
DEFAULT_ALLOWED_MODULES = ("reefbench",)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RequestGuard:
    """ASGI middleware: bodies must be JSON (else 415) and at most ``limit`` bytes (else 413).

    The size is counted as the body arrives, so a request that omits or misstates its
    length is refused before anything parses it.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await _reject(send, 413, "request body too large")
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, receive, send)  # client went away: let the app see it
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await _reject(send, 413, "request body too large")
                return
            chunks.append(chunk)
            more = bool(message.get("more_body"))
        content_type = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        if size and content_type != b"application/json":
            await _reject(send, 415, "request bodies must be application/json")
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _reject(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


@contextmanager
def refused_as_422(ref: str) -> Iterator[None]:
    """A referenced step the client should not have sent is its error (422), not a crash.

    Actions say so with InvalidAction/ActionFailed; an action made for another kind of
    environment (a desktop action sent to a phone server) raises WrongEnvironment, and an
    evaluator that returns neither bool nor EvalResult a TypeError.
    """
    try:
        yield
    except (InvalidAction, ActionFailed, WrongEnvironment, TypeError) as exc:
        raise HTTPException(422, f"{ref}: {exc}") from None


def create_app(
    env: Environment,
    token: str,
    *,
    allowed_modules: tuple[str, ...] = DEFAULT_ALLOWED_MODULES,
    max_body: int = DEFAULT_MAX_BODY,
) -> Any:
    """The ASGI application serving ``env``: ``GET /version`` for anyone, every other
    route behind the token (:func:`_lifecycle_routes`, :func:`_play_routes`,
    :func:`_reference_routes`), one request at a time (a lock: environments are not
    thread-safe), bodies checked as they stream in (:class:`RequestGuard`)."""
    check_token(token, "remote-environment")
    lock = threading.Lock()

    def authorised(request: Request) -> None:
        if not bearer_matches(request.headers.get("authorization", ""), token):
            raise HTTPException(status_code=401, detail="missing or wrong token")

    api = FastAPI(title=f"reefbench environment '{env.name}'", docs_url=None, redoc_url=None)
    api.exception_handler(RequestValidationError)(_invalid_body)

    @api.get("/version")
    def version() -> dict[str, Any]:
        return {"reefbench": __version__, "protocol": PROTOCOL_VERSION}

    guard = [Depends(authorised)]
    api.include_router(_lifecycle_routes(env, lock), dependencies=guard)
    api.include_router(_play_routes(env, lock), dependencies=guard)
    api.include_router(_reference_routes(env, lock, allowed_modules), dependencies=guard)
    return RequestGuard(api, max_body)


async def _invalid_body(request: Request, exc: RequestValidationError) -> JSONResponse:
    """A body that does not validate is a 422 naming where and what, without the input:
    FastAPI's default echoes it, which may hold NaN (not JSON: a 500) or megabytes."""
    errors = [
        {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))}
        for e in exc.errors()
    ]
    return JSONResponse({"detail": errors}, status_code=422)


def _described(act: Action) -> ActionInfo:
    """An action as ``/info`` lists it: name, description, parameters' JSON schema."""
    return ActionInfo(name=act.name, description=act.description, parameters=act.parameters_schema)


def _lifecycle_routes(env: Environment, lock: threading.Lock) -> APIRouter:
    """The routes that describe the environment and move it through its life: ``/health``,
    ``/info``, ``/start``, ``/reset`` (with an action set), ``/stop``."""
    routes = APIRouter()

    @routes.get("/health")
    def health() -> dict[str, bool]:
        with lock:
            return {"ok": env.health()}

    @routes.get("/info")
    def info() -> EnvironmentInfo:
        return EnvironmentInfo(
            name=env.name,
            description=env.description,
            action_space=[_described(a) for a in env.action_space.values()],
            observation_space=list(env.observation_space),
            action_sets={
                name: [_described(a) for a in acts] for name, acts in env.action_set_actions.items()
            },
            action_set_removes={
                name: list(names) for name, names in env.action_set_removes.items()
            },
            action_set_observations={
                name: [a.name for a in acts] for name, acts in env.action_set_observations.items()
            },
        )

    @routes.post("/start")
    def start() -> dict[str, bool]:
        with lock:
            env.start()
        return {"ok": True}

    @routes.post("/reset")
    def reset(body: ResetRequest | None = None) -> dict[str, bool]:
        action_set = body.action_set if body is not None else DEFAULT_ACTION_SET
        with lock:
            try:
                env.reset(action_set=action_set)
            except ConfigError as exc:  # an unknown action set
                raise HTTPException(422, str(exc)) from None
        return {"ok": True}

    @routes.post("/stop")
    def stop() -> dict[str, bool]:
        with lock:
            env.stop()
        return {"ok": True}

    return routes


def _play_routes(env: Environment, lock: threading.Lock) -> APIRouter:
    """The routes an agent's episode uses: ``/step`` (an action by name; refused and
    failed actions are replies, not errors) and ``/observe`` (every observation)."""
    routes = APIRouter()

    @routes.post("/step")
    def step(body: StepRequest) -> StepReply:
        with lock:
            try:
                result = env.step(body.action, body.arguments)
            except InvalidAction as exc:
                return StepReply(status="invalid", error=str(exc))
            except ActionFailed as exc:
                return StepReply(status="failed", error=str(exc))
        return StepReply(status="ok", result=loggable(result))

    @routes.post("/observe")
    def observe() -> ObserveReply:
        with lock:
            values = env.observe()
        return ObserveReply(observations={k: encode_observation(v) for k, v in values.items()})

    return routes


def _reference_routes(
    env: Environment, lock: threading.Lock, allowed_modules: tuple[str, ...]
) -> APIRouter:
    """The routes that run what a task names by import reference (setup steps,
    evaluators): ``/execute``, ``/evaluate``, ``/end_state``; a reference outside
    ``allowed_modules`` is refused (403) before it is imported."""
    routes = APIRouter()

    def bind(body: RefRequest) -> Any:
        # A stable name (what task files write) is checked by the module it names.
        module = target_module(body.ref)
        if module is None:
            raise HTTPException(422, f"'{body.ref}' is not a stable name of an action")
        if not any(module == m or module.startswith(m + ".") for m in allowed_modules):
            raise HTTPException(403, f"module '{module}' is not allowed on this server")
        try:
            return resolve_ref(body.ref)(**body.arguments)
        except (ConfigError, InvalidAction) as exc:
            raise HTTPException(422, str(exc)) from None

    def bound_evaluator(body: RefRequest) -> Evaluator:
        evaluator = bind(body)
        if not isinstance(evaluator, Evaluator):
            raise HTTPException(422, f"'{body.ref}' is not an evaluator")
        return evaluator

    @routes.post("/execute")
    def execute(body: RefRequest) -> dict[str, Any]:
        action = bind(body)
        with lock, refused_as_422(body.ref):
            return {"result": loggable(env.execute(action))}

    @routes.post("/evaluate")
    def evaluate(body: RefRequest) -> EvaluateReply:
        evaluator = bound_evaluator(body)
        with lock, refused_as_422(body.ref):
            result = env.evaluate(evaluator)
        return EvaluateReply(
            success=result.success, message=result.message, progress=result.progress
        )

    @routes.post("/end_state")
    def end_state(body: RefRequest) -> RefRequest:
        evaluator = bound_evaluator(body)
        with lock, refused_as_422(body.ref):
            check = env.fix_end_state(evaluator)
        return RefRequest(ref=check.ref, arguments=check.json_arguments())

    return routes
