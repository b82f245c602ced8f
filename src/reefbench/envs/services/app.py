"""The ASGI application: login, the launcher at /, every app's pages, and /internal."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import HTTPException
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from reefbench.envs.services import (
    calendar,
    clock,
    contacts,
    files,
    gallery,
    internal,
    mail,
    maps,
    messages,
    notes,
    settings,
    tasks,
)
from reefbench.envs.services.login import DEFAULT_PASSWORD, DEFAULT_USERNAME
from reefbench.envs.services.store import Store, StoreError
from reefbench.envs.services.web import (
    SESSION_COOKIE,
    STATIC_DIR,
    LoginRequired,
    Services,
    logged_in,
    render,
    safe_next,
    see_other,
    services,
    text,
)


def create_app(
    store: Store, token: str, username: str = DEFAULT_USERNAME, password: str = DEFAULT_PASSWORD
) -> FastAPI:
    """Build the ASGI app: login, the launcher at /, every app's pages and /internal."""
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    app.state.services = Services(store=store, token=token, username=username, password=password)
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")
    _register_error_pages(app)
    app.include_router(_session_routes(username, password))
    for module in (
        internal,
        mail,
        calendar,
        contacts,
        tasks,
        notes,
        files,
        gallery,
        messages,
        maps,
        clock,
        settings,
    ):
        app.include_router(module.router)
    app.include_router(files.share_router)
    return app


def _register_error_pages(app: FastAPI) -> None:
    """What a failed request gets: the login page when a page needs a session, and for a
    store error or a 404 a page in the app's frame for browsers, or JSON under
    ``/internal`` (and ``/static`` for a 404), where the callers are programs."""

    @app.exception_handler(LoginRequired)
    async def to_login(request: Request, exc: LoginRequired) -> Response:
        return see_other("/login", next=exc.target)

    @app.exception_handler(StoreError)
    async def store_error(request: Request, exc: StoreError) -> Response:
        if request.url.path.startswith("/internal"):
            return JSONResponse({"detail": str(exc)}, status_code=422)
        app_name = request.url.path.strip("/").split("/")[0] or "home"
        return render(
            request,
            "error.html",
            app_name,
            app_name.capitalize(),
            status_code=400,
            heading="That did not work",
            message=str(exc),
        )

    @app.exception_handler(404)
    async def not_found(request: Request, exc: HTTPException) -> Response:
        if request.url.path.startswith(("/internal", "/static")):
            return JSONResponse({"detail": exc.detail}, status_code=404)
        return render(
            request,
            "error.html",
            "home",
            "Home",
            status_code=404,
            heading="Not found",
            message=str(exc.detail),
        )


def _session_routes(username: str, password: str) -> APIRouter:
    """The launcher at ``/`` and signing in and out: a session cookie for the one account
    (``username``/``password``), bound to the client that signed in."""
    routes = APIRouter()

    @routes.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> Response:
        if not logged_in(request):
            return see_other("/login", next="/")
        return render(request, "home.html", "home", "Apps")

    @routes.get("/login", response_class=HTMLResponse)
    async def login_form(request: Request, next: str = "/") -> Response:
        return render(request, "login.html", "login", "Sign in", next=next, username="")

    @routes.post("/login")
    async def login(request: Request) -> Response:
        form = await request.form()
        user, password_given = text(form, "username"), text(form, "password")
        target = safe_next(text(form, "next", "/") or "/")
        ok = secrets.compare_digest(user.encode(), username.encode()) and secrets.compare_digest(
            password_given.encode(), password.encode()
        )
        if not ok:
            return render(
                request,
                "login.html",
                "login",
                "Sign in",
                status_code=401,
                next=target,
                username=user,
                error="Wrong username or password.",
            )
        response = RedirectResponse(target, status_code=303)
        # The session belongs to the client that signed in (its device key), so what it
        # changes later is attributed to that client.
        state = services(request)
        session = state.new_session(state.client_signing_in(request))
        response.set_cookie(SESSION_COOKIE, session, httponly=True, samesite="lax")
        return response

    @routes.post("/logout")
    async def logout(request: Request) -> Response:
        services(request).sessions.pop(request.cookies.get(SESSION_COOKIE, ""), None)
        response = see_other("/login")
        response.delete_cookie(SESSION_COOKIE)
        return response

    return routes
