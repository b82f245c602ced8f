"""``reef view``: browse trajectories step by step, and compare two runs on one task.

A small FastAPI app served on loopback. Like every reefbench server it requires a token:
the printed URL carries it once (``?token=...``), after which a cookie does. Files are
served only from the episode folders of the runs given on the command line.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape

from reefbench.log.store import ResultsStore
from reefbench.report.loading import LoadedRun, load_run

COOKIE = "reef_view"


def create_viewer(run_dirs: list[Path], token: str) -> FastAPI:
    """The viewer app over ``run_dirs`` (each a directory written by ``reef run``): an
    index of every episode, one episode's trajectory, two runs side by side, and an
    episode's files; every page behind the token (:func:`_require_token`)."""
    runs: dict[str, LoadedRun] = {}
    for path in run_dirs:
        run = load_run(path)
        runs[str(len(runs))] = run
    templates = Environment(
        loader=PackageLoader("reefbench.report", "templates"), autoescape=select_autoescape()
    )
    templates.filters["pct"] = lambda v: "n/a" if v is None else f"{100 * v:.1f}"
    api = FastAPI(title="reefbench viewer", docs_url=None, redoc_url=None, openapi_url=None)
    _require_token(api, token)

    def page(name: str, **context: Any) -> HTMLResponse:
        return HTMLResponse(templates.get_template(name).render(runs=runs, **context))

    @api.get("/")
    def index() -> HTMLResponse:
        rows = {run_id: _rows(run) for run_id, run in runs.items()}
        task_ids = sorted({r["task_id"] for rs in rows.values() for r in rs})
        return page("viewer_index.html", rows=rows, task_ids=task_ids)

    @api.get("/runs/{run_id}/episodes/{key}")
    def show(run_id: str, key: str) -> HTMLResponse:
        result = _episode(runs, run_id, key)
        task = runs[run_id].tasks.get(result.task_id)
        return page("viewer_episode.html", run_id=run_id, key=key, result=result, task=task)

    @api.get("/compare")
    def compare(task: str, a: str = "0", b: str = "1", seed: int = 0) -> HTMLResponse:
        key = f"{task}#s{seed}"
        sides = [(run_id, _episode(runs, run_id, key)) for run_id in (a, b)]
        return page("viewer_compare.html", task_id=task, sides=sides, key=key)

    @api.get("/runs/{run_id}/files/{key}/{name}")
    def file(run_id: str, key: str, name: str) -> FileResponse:
        return FileResponse(_episode_file(runs.get(run_id), key, name))

    return api


def _require_token(api: FastAPI, token: str) -> None:
    """Refuse every request without the token (401). The token is taken from the URL once
    (``?token=``, as the printed link carries it) and moved into a strict cookie, so it
    does not stay in the address bar or the history."""

    @api.middleware("http")
    async def require_token(request: Request, call_next: Any) -> Response:
        offered = request.query_params.get("token") or request.cookies.get(COOKIE, "")
        if not secrets.compare_digest(offered.encode(), token.encode()):
            return HTMLResponse("missing or wrong token", status_code=401)
        if "token" in request.query_params:  # move the token from the URL into a cookie
            response = RedirectResponse(request.url.remove_query_params("token"), 303)
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
            return response
        result: Response = await call_next(request)
        return result


def _rows(run: LoadedRun) -> list[dict[str, Any]]:
    """The run's episode rows (the results store's index: key, task, status ...)."""
    store = ResultsStore(run.path)
    try:
        return store.rows()
    finally:
        store.close()


def _episode(runs: dict[str, LoadedRun], run_id: str, key: str) -> Any:
    """One episode's stored result with its trajectory; 404 for an unknown run or key."""
    run = runs.get(run_id)
    if run is None:
        raise HTTPException(404, "no such run")
    store = ResultsStore(run.path)
    try:
        keys = {row["key"] for row in store.rows()}
        if key not in keys:
            raise HTTPException(404, "no such episode")
        return store.load(key, trajectory=True)
    finally:
        store.close()


def _episode_file(run: LoadedRun | None, key: str, name: str) -> Path:
    """The file ``name`` of an episode the run holds; 404 for anything else: an unknown
    run or episode, a name with a slash or a leading dot, or a path that resolves outside
    the episode's folder (a symlink, ``..``)."""
    if run is None or "/" in name or name.startswith(".") or not _known_episode(run, key):
        raise HTTPException(404, "no such file")
    episodes = (run.path / "episodes").resolve()
    folder = ResultsStore.episode_folder(run.path, key).resolve()
    path = (folder / name).resolve()
    if folder.parent != episodes or path.parent != folder or not path.is_file():
        raise HTTPException(404, "no such file")
    return path


def _known_episode(run: LoadedRun, key: str) -> bool:
    """Whether the run's results store has an episode ``key``."""
    return any(row["key"] == key for row in _rows(run))
