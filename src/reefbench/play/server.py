"""The page of ``reef play``: a small FastAPI app over one :class:`PlaySession`.

Server-rendered HTML (Jinja2) with Alpine.js for the live parts, in Alpine's CSP build
(no ``eval``: its expressions are parsed), vendored under ``static/`` since the page must
work offline; the Content-Security-Policy allows scripts, styles and images from the page
itself only. Like every reefbench server it requires a token on every request, static
files included: the printed URL carries it once (``?token=...``), after which a strict
cookie does; requests that change something must also carry the ``X-Reef-Play`` header,
which a cross-site form cannot send.

The JSON API the page uses:

* ``GET /state``: the task, the devices, the last calls, the result (author: checkpoints
  and scripts);
* ``GET /view/{env}``: a device's current screenshot (PNG);
* ``POST /gesture``: a gesture on a view (:class:`~reefbench.play.gestures.Gesture`);
* ``POST /act``: any action by name (``{"env", "name", "arguments"}``): the other
  actions, done, the answer, asking the user;
* ``POST /script``: author mode, the next step of the reference or a near miss.
"""

from __future__ import annotations

import secrets
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from reefbench.errors import ReefError
from reefbench.play.gestures import Gesture
from reefbench.play.session import PlaySession

COOKIE = "reef_play"
CHANGE_HEADER = "x-reef-play"
STATIC_TYPES = {
    "alpine-csp.min.js": "text/javascript",
    "play.js": "text/javascript",
    "play.css": "text/css",
}
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


class ActRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    env: str = Field(max_length=100)
    name: str = Field(max_length=100)
    arguments: dict[str, Any] = Field(default_factory=dict)


class ScriptRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(max_length=100)


def create_app(session: PlaySession, token: str) -> FastAPI:
    """The page's app over a started ``session``, every request behind ``token``."""
    templates = Environment(
        loader=PackageLoader("reefbench.play", "templates"), autoescape=select_autoescape()
    )
    static = {
        name: (resources.files("reefbench.play") / "static" / name).read_bytes()
        for name in STATIC_TYPES
    }
    api = FastAPI(title="reef play", docs_url=None, redoc_url=None, openapi_url=None)
    _require_token(api, token)

    @api.get("/")
    def page() -> HTMLResponse:
        html = templates.get_template("play.html").render(task=session.task, author=session.author)
        return HTMLResponse(html)

    @api.get("/static/{name}")
    def static_file(name: str) -> Response:
        if name not in static:
            return JSONResponse({"error": "no such file"}, status_code=404)
        return Response(static[name], media_type=STATIC_TYPES[name])

    @api.get("/state")
    def state() -> dict[str, Any]:
        return session.state()

    @api.get("/view/{env}")
    def view(env: str) -> Response:
        shot = session.view(env)
        if shot is None:
            return JSONResponse({"error": f"no view of {env!r}"}, status_code=404)
        return Response(shot, media_type="image/png", headers={"Cache-Control": "no-store"})

    @api.post("/gesture")
    def gesture(body: dict[str, Any]) -> Response:
        return _answer(lambda: session.gesture(Gesture.model_validate(body)))

    @api.post("/act")
    def act(body: dict[str, Any]) -> Response:
        def run() -> dict[str, Any]:
            request = ActRequest.model_validate(body)
            return session.act(request.env, request.name, request.arguments)

        return _answer(run)

    @api.post("/script")
    def script(body: dict[str, Any]) -> Response:
        return _answer(lambda: session.play_script(ScriptRequest.model_validate(body).id))

    return api


def _answer(run: Any) -> Response:
    """The new state, or the refusal in one line (400): a gesture the device has no action
    for, a malformed request, an ended episode. Refusals reach no device."""
    try:
        return JSONResponse(run())
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse({"error": f"{where}: {first.get('msg')}"}, status_code=400)
    except ReefError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)


def _require_token(api: FastAPI, token: str) -> None:
    """Refuse every request without the token (401), static files included. The token is
    taken from the URL once and moved into a strict, HTTP-only cookie; a request that
    changes something must also carry :data:`CHANGE_HEADER` (a cross-site page cannot
    send it without a preflight this app never allows). Every answer carries the
    Content-Security-Policy."""

    @api.middleware("http")
    async def require_token(request: Request, call_next: Any) -> Response:
        offered = request.query_params.get("token") or request.cookies.get(COOKIE, "")
        response: Response
        if not secrets.compare_digest(offered.encode(), token.encode()):
            response = HTMLResponse("missing or wrong token", status_code=401)
        elif "token" in request.query_params:
            response = RedirectResponse(request.url.remove_query_params("token"), 303)
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
        elif request.method not in ("GET", "HEAD") and request.headers.get(CHANGE_HEADER) != "1":
            response = JSONResponse({"error": f"missing {CHANGE_HEADER} header"}, 403)
        else:
            response = await call_next(request)
        response.headers["Content-Security-Policy"] = POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response
