"""Security: what an agent types cannot leave its sandbox, and secrets never leave the harness.

The attacks run for real: commands typed into the desktop's own terminal (as a model
would) try to read the harness's files and environment, reach the network and signal host
processes; text full of shell metacharacters is typed into real apps; path traversal goes
to setup actions, evaluators, the services' files app and the remote server's references;
an episode runs with an API key in the harness's environment and every file it produced,
the report, the logs and the sandbox's processes are searched for the key.
"""

from __future__ import annotations

import ast
import logging
import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import reefbench
from reefbench.errors import ActionFailed

from .conftest import (
    SECRET_KEY,
    Fault,
    FaultyOpenAI,
    alive,
    files_containing,
    needs_desktop,
    scan_processes,
    wait_until,
)

SRC = Path(reefbench.__file__).parent
REPO = SRC.parent.parent


# ------------------------------------------------------------------ the real desktop
@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One desktop for the module, started while the harness holds an API key."""
    from reefbench.envs.desktop import DesktopEnvironment

    previous = os.environ.get("OPENAI_API_KEY")
    os.environ["OPENAI_API_KEY"] = SECRET_KEY
    env = DesktopEnvironment(settle_timeout=2.0)
    try:
        env.start()
        yield env
    finally:
        env.stop()
        if previous is None:
            os.environ.pop("OPENAI_API_KEY", None)
        else:
            os.environ["OPENAI_API_KEY"] = previous


@pytest.fixture
def terminal(desk: Any) -> Any:
    desk.reset()
    desk.step("search_app", {"name": "terminal"})
    return desk


def typed_command(desk: Any, command: str, name: str, timeout: float = 20.0) -> str:
    """Type ``command`` into the terminal, output to ~/name; return that output when done."""
    marker = f"END-{secrets.token_hex(4)}"
    desk.step(
        "write_text", {"text": f"{{ {command} ; }} > ~/{name} 2>&1; echo {marker} >> ~/{name}\n"}
    )
    out = desk.session.home / name
    assert wait_until(lambda: out.exists() and marker in out.read_text(), timeout=timeout), (
        f"the typed command did not finish: {command}"
    )
    return out.read_text()


@pytest.fixture
def canary_file() -> Iterator[tuple[Path, str]]:
    """A secret file on the host, like one in the harness's home directory.

    It lives in /var/tmp, not in ``$HOME``: a home under /tmp (as on a fresh machine run
    with ``HOME=/tmp/...``) has the same absolute path as a file in the sandbox's own
    /tmp, where writing is allowed, and the test would depend on where ``$HOME`` is.
    """
    secret = f"canary-{secrets.token_hex(8)}"
    folder = Path(tempfile.mkdtemp(prefix="reef-canary-", dir="/var/tmp"))
    path = folder / f".reef-canary-{secrets.token_hex(4)}"
    path.write_text(secret)
    try:
        yield path, secret
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.integration
@needs_desktop
def test_the_harness_home_and_repository_are_unreadable_from_the_terminal(
    terminal: Any, canary_file: tuple[Path, str]
) -> None:
    path, secret = canary_file
    repo_file = REPO / "pyproject.toml"
    assert repo_file.exists() and secret in path.read_text()  # both readable on the host
    seen = typed_command(
        terminal, f"cat {path}; cat {repo_file}; ls {SRC}; cat /proc/1/root{path}", "read.txt"
    )
    assert secret not in seen and "[project]" not in seen and "actions.py" not in seen
    assert seen.count("No such file or directory") >= 3, seen


@pytest.mark.integration
@needs_desktop
def test_the_harness_environment_is_unreadable_from_the_terminal(terminal: Any) -> None:
    harness = os.getpid()
    seen = typed_command(
        terminal,
        f"cat /proc/1/environ /proc/self/environ /proc/{harness}/environ"
        f" /proc/{os.getppid()}/environ; cat /proc/*/environ; ps -eo pid,args",
        "env.txt",
    )
    assert SECRET_KEY not in seen and "OPENAI_API_KEY" not in seen
    assert "pytest" not in seen, "no harness process is visible inside"
    assert "HOME=/home/user" in seen, "the sandbox's own environment was readable (sanity)"
    # and from the host side: no process of the sandbox carries the key
    assert scan_processes(SECRET_KEY, terminal.session.pids()) == []


@pytest.mark.integration
@needs_desktop
def test_non_loopback_addresses_are_unreachable_from_the_terminal(terminal: Any) -> None:
    """Inside the sandbox there is no route off loopback: the connect fails at once, so no
    packet is ever sent towards these private addresses."""
    probe = (
        "import socket, sys\n"
        "for host in sys.argv[1:]:\n"
        "    s = socket.socket(); s.settimeout(5)\n"
        "    try:\n"
        "        s.connect((host, 80)); print(host, 'CONNECTED')\n"
        "    except OSError as e:\n"
        "        print(host, 'errno', e.errno)\n"
    )
    (terminal.session.home / "probe.py").write_text(probe)
    seen = typed_command(
        terminal, "python3 ~/probe.py 10.255.255.1 192.168.0.1 172.16.0.1; ip -o addr", "net.txt"
    )
    assert "CONNECTED" not in seen
    assert seen.count("errno 101") == 3, seen  # ENETUNREACH: no route, nothing sent
    assert "inet " in seen and all(
        " lo " in line for line in seen.splitlines() if "inet" in line
    ), "only loopback exists"


@pytest.mark.integration
@needs_desktop
def test_host_processes_cannot_be_signalled_from_the_terminal(terminal: Any) -> None:
    canary = subprocess.Popen(["sleep", "600"])
    try:
        # `kill -9 -1` also kills the terminal window, whose closing pty hangs up the shell
        # typing this: the shell ignores SIGHUP, or under load it could die before writing
        # the output the test waits for.
        seen = typed_command(
            terminal,
            f"trap '' HUP; kill -9 {canary.pid}; echo rc=$?; kill -9 -1; echo survived",
            "kill.txt",
        )
        assert "rc=1" in seen, seen  # no such process in the sandbox's pid namespace
        assert alive(canary.pid), "the host process survived every kill"
        assert canary.poll() is None
    finally:
        canary.kill()
        canary.wait(10)
    terminal.reset()  # kill -1 took down what it could inside; reset repairs it
    assert terminal.health()


LITERAL = (
    "a;b && c || d $(touch ~/pwned) `touch ~/pwned2` $HOME ${PATH} 'q' \"dq\" \\n <x> | tee; "
    "#!*?[]{}~%^\tTAB ünïcödé → 日本\nsecond line > ~/redirect"
)


@pytest.mark.integration
@needs_desktop
def test_write_text_arrives_literally_in_a_real_editor(desk: Any) -> None:
    from reefbench.envs.desktop import setup as st

    desk.reset()
    desk.execute(st.open_app(app="editor"))
    for text, expected in [
        (LITERAL, LITERAL),
        # Control characters have no key: they are dropped, never interpreted by a shell.
        (
            "esc:\x1b[31mred\x1b[0m bell:\x07 ctrl-c:\x03 del:\x7f end",
            "esc:[31mred[0m bell: ctrl-c: del: end",
        ),
    ]:
        desk.step("hotkey", {"keys": ["ctrl", "a"]})
        desk.step("press", {"key": "delete"})
        desk.step("write_text", {"text": text})
        desk.step("hotkey", {"keys": ["ctrl", "a"]})
        desk.step("hotkey", {"keys": ["ctrl", "c"]})
        assert desk.clipboard() == expected
    home = desk.session.home
    assert not any((home / n).exists() for n in ("pwned", "pwned2", "redirect"))
    assert desk.health()


TEXTAREA = "data:text/html,<textarea id=t autofocus></textarea>"


@pytest.mark.integration
@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="needs /usr/bin/chromium")
def test_write_text_arrives_literally_in_the_browser() -> None:
    pytest.importorskip("playwright")
    from reefbench.envs.browser import BrowserEnvironment

    env = BrowserEnvironment(start_url=TEXTAREA)
    try:
        env.reset()
        env.step("write_text", {"text": LITERAL})
        assert env.page.evaluate("document.getElementById('t').value") == LITERAL
    finally:
        env.stop()


# The phone's literal write_text (quotes, ';', '$()', newlines, non-ASCII) is covered by
# tests/envs/phone; the ADB transport's argument vectors by tests/envs/android.


# ------------------------------------------------------------------ path traversal
@pytest.mark.integration
@needs_desktop
def test_desktop_setup_and_evaluators_refuse_paths_out_of_the_sandbox(
    terminal: Any, canary_file: tuple[Path, str]
) -> None:
    from reefbench.envs.desktop import evaluators as ev
    from reefbench.envs.desktop import setup as st

    path, secret = canary_file
    # The agent plants a symlink to the host's / (harmless inside, where / is the sandbox's).
    typed_command(terminal, "ln -s / ~/hostroot; ln -s /root ~/roothome", "ln.txt")
    assert (terminal.session.home / "hostroot").is_symlink()
    for attempt in (
        f"~/../../../..{path}",
        str(path),
        f"~/hostroot{path}",
        f"/tmp/../..{path}",
        f"~/roothome/{path.name}",
    ):
        with pytest.raises(ActionFailed, match="outside"):
            terminal.execute(st.create_file(path=attempt, content="pwned"))
        assert path.read_text() == secret, "the host file is untouched"
        assert not ev.file_exists(path=attempt).evaluate(terminal).success
        result = ev.file_content_equals(path=attempt, content=secret).evaluate(terminal)
        assert not result.success and secret not in result.message
    with pytest.raises(ActionFailed, match="outside"):
        terminal.execute(st.create_directory(path="~/hostroot/etc/reef-pwned"))
    assert not Path("/etc/reef-pwned").exists()


@pytest.mark.integration
def test_services_files_refuse_traversal_and_touch_no_host_file() -> None:
    from reefbench.envs.services import ServicesEnvironment

    with ServicesEnvironment() as env:
        for bad in ("../../etc/reef-pwned", "Documents/../../x", "..", "a/../b"):
            with pytest.raises(ActionFailed, match="not a usable name"):
                env.call("add_file", path=bad, content="x")
        assert env.rows("files") == [], "nothing was stored"
    assert not Path("/etc/reef-pwned").exists()


TOKEN = secrets.token_urlsafe(24)


@pytest.fixture(scope="module")
def remote() -> Iterator[str]:
    from reefbench.envs.memory import MemoryEnvironment
    from reefbench.envs.remote.server import create_app
    from reefbench.plumbing.net import ServedApp

    app = ServedApp(create_app(MemoryEnvironment("laptop"), TOKEN, max_body=64 * 1024))
    yield app.url
    app.stop()


def auth() -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKEN}"}


@pytest.mark.integration
@pytest.mark.parametrize(
    ("ref", "status"),
    [
        (".os:system", 403),  # relative imports
        ("..reefbench:x", 403),
        ("reefbench..os:system", 422),
        ("reefbench/../os:system", 403),
        ("reefbench.envs.memory:os.system", 422),  # attribute walks out of the module
        ("reefbench.envs.memory:write_file.func.__globals__", 422),
        ("reefbench.envs.memory:__builtins__.eval", 422),
        ("reefbench.envs.desktop.actions:click", 422),  # an action for another environment
        # inside the allowed prefix, but not a module of actions: refused before import (it
        # used to start a second reef CLI inside the server, and the request never returned)
        ("reefbench.cli.__main__:main", 422),
        ("reefbench.cli:main", 422),
        ("reefbench.runner.engine:Runner", 422),
    ],
)
def test_remote_references_cannot_walk_out_of_the_allowed_actions(
    remote: str, ref: str, status: int
) -> None:
    for path in ("/execute", "/evaluate"):
        args = {"elem": 1} if ref.endswith("click") else {}
        response = httpx.post(remote + path, headers=auth(), json={"ref": ref, "arguments": args})
        assert response.status_code == status, (path, response.text)
        assert "detail" in response.json()


# ------------------------------------------------------------------ protocols
@pytest.mark.integration
def test_remote_token_only_in_the_authorization_header(remote: str) -> None:
    assert httpx.get(remote + "/info", params={"token": TOKEN}).status_code == 401
    assert httpx.get(remote + "/info", cookies={"token": TOKEN}).status_code == 401
    assert httpx.get(remote + "/info", headers={"Authorization": TOKEN}).status_code == 401
    prefix = {"Authorization": f"Bearer {TOKEN[:-1]}"}
    assert httpx.get(remote + "/info", headers=prefix).status_code == 401
    assert httpx.get(remote + "/info", headers=auth()).status_code == 200


@pytest.mark.integration
def test_remote_deeply_nested_json_is_refused_not_a_crash(remote: str) -> None:
    body = b'{"action": "write_file", "arguments": {"path": ' + b"[" * 20000 + b"]" * 20000 + b"}}"
    headers = {**auth(), "content-type": "application/json"}
    response = httpx.post(remote + "/step", headers=headers, content=body)
    assert 400 <= response.status_code < 500 and "detail" in response.json()
    assert httpx.get(remote + "/version").status_code == 200


@pytest.mark.integration
@pytest.mark.parametrize(
    ("path", "body"),
    [("/execute", b'{"ref": NaN}'), ("/step", b'{"action": Infinity}'),
     ("/evaluate", b'{"ref": -Infinity, "arguments": {}}')],
)  # fmt: skip
def test_remote_non_standard_json_constants_get_a_422_not_a_500(
    remote: str, path: str, body: bytes
) -> None:
    """Python's parser accepts NaN; echoing it back in the error is not JSON (was a 500)."""
    headers = {**auth(), "content-type": "application/json"}
    response = httpx.post(remote + path, headers=headers, content=body)
    assert response.status_code == 422 and response.json()["detail"]


@pytest.fixture(scope="module")
def services() -> Iterator[Any]:
    from reefbench.envs.services import ServicesEnvironment

    with ServicesEnvironment() as env:
        yield env


INTERNAL_ROUTES = [
    ("GET", "/internal/health"),
    ("POST", "/internal/reset"),
    ("POST", "/internal/snapshot"),
    ("GET", "/internal/tables/contacts"),
    ("POST", "/internal/ops/add_contact"),
    ("POST", "/internal/session"),
    ("POST", "/internal/client-key"),
    ("GET", "/internal/tables/changes"),
    ("DELETE", "/internal/sessions"),
]


@pytest.mark.integration
def test_every_internal_route_needs_the_right_token(services: Any) -> None:
    token = services.server.token
    for method, path in INTERNAL_ROUTES:
        url = services.url + path
        body = {"json": {"name": "Mallory"}} if method == "POST" else {}
        assert httpx.request(method, url, **body).status_code == 401, path
        for wrong in (f"Bearer {token[:-1]}x", f"Basic {token}", token, "Bearer", "Bearer x"):
            headers = {"Authorization": wrong}
            assert httpx.request(method, url, headers=headers, **body).status_code in (401, 403)
    assert not any(r["name"] == "Mallory" for r in services.rows("contacts"))


@pytest.mark.integration
@pytest.mark.parametrize(
    ("content", "status"),
    [
        (b'{"name": ', 422),  # truncated
        (b"not json at all", 422),
        (b"[" * 50000 + b"]" * 50000, 422),  # nesting deeper than the parser's recursion
        (b'{"name": 5}', 422),  # wrong type
        (b'{"name": "x", "evil": "__import__(\'os\')"}', 422),  # unknown argument
        (b'{"name": "x", "phone": {"$gt": ""}}', 422),
        (b"\x80\x04\x95cos\nsystem\n.", 422),  # a pickle is just bytes that are not JSON
    ],
)
def test_services_internal_api_refuses_malformed_json_with_422(
    services: Any, content: bytes, status: int
) -> None:
    headers = {
        "Authorization": f"Bearer {services.server.token}",
        "content-type": "application/json",
    }
    response = httpx.post(
        services.url + "/internal/ops/add_contact", headers=headers, content=content
    )
    assert response.status_code == status, response.text
    assert "detail" in response.json()
    assert services.health()


@pytest.mark.integration
def test_services_internal_api_refuses_oversized_bodies_while_they_stream(services: Any) -> None:
    from reefbench.envs.services.internal import MAX_BODY

    headers = {
        "Authorization": f"Bearer {services.server.token}",
        "content-type": "application/json",
    }
    url = services.url + "/internal/ops/add_file"
    big = b'{"path": "big.txt", "content": "' + b"x" * (MAX_BODY + 10) + b'"}'
    assert httpx.post(url, headers=headers, content=big, timeout=60).status_code == 413
    chunks = (b"x" * (1 << 20) for _ in range(MAX_BODY // (1 << 20) + 2))  # no Content-Length
    assert httpx.post(url, headers=headers, content=chunks, timeout=60).status_code == 413
    assert services.health()


FORBIDDEN_IMPORTS = {"pickle", "cPickle", "dill", "cloudpickle", "marshal", "shelve", "jsonpickle"}


def test_no_module_unpickles_evals_or_runs_a_shell() -> None:
    """Static guard over src/reefbench: no pickle-like imports, eval/exec, shell=True,
    os.system/popen, or yaml.load without the safe loader."""
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            where = f"{path.relative_to(SRC)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                if any(n.split(".")[0] in FORBIDDEN_IMPORTS for n in names):
                    problems.append(f"{where}: imports {names}")
            elif isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if name in ("eval", "exec") and isinstance(func, ast.Name):
                    problems.append(f"{where}: {name}()")
                if name in ("system", "popen") and ast.unparse(func).startswith("os."):
                    problems.append(f"{where}: {ast.unparse(func)}()")
                if name == "load" and ast.unparse(func) == "yaml.load":
                    problems.append(f"{where}: yaml.load")
                for keyword in node.keywords:
                    if keyword.arg == "shell" and not (
                        isinstance(keyword.value, ast.Constant) and keyword.value.value is False
                    ):
                        problems.append(f"{where}: shell={ast.unparse(keyword.value)}")
    assert problems == []


# ------------------------------------------------------------------ API keys
@pytest.mark.integration
@needs_desktop
def test_an_api_key_appears_in_no_result_log_report_or_sandbox(
    faulty_openai: FaultyOpenAI,
    tmp_path: Path,
    short_dir: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A model episode on a real desktop plus the memory laptop, with the key in the harness's
    environment (OPENAI_API_KEY, read by the provider from there): afterwards the key is in
    no stored file, no log record, no report file, and no process of the sandbox."""
    from reefbench import Task
    from reefbench.agents import SingleAgent
    from reefbench.agents.providers import ProviderOptions, RetryPolicy, make_provider
    from reefbench.envs import memory as m
    from reefbench.envs.desktop import DesktopEnvironment
    from reefbench.envs.desktop import evaluators as ev
    from reefbench.log.store import ResultsStore, write_run_manifest
    from reefbench.report.html import write_report
    from reefbench.report.loading import load_run
    from reefbench.runner.config import RunConfig, versions
    from reefbench.runner.engine import Runner

    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET_KEY)
    faulty_openai.script = [Fault("status", status=429)]  # one retry gets logged
    faulty_openai.default = Fault(
        "ok",
        calls=(
            ("desktop__write_text", {"text": "hello"}),
            ("laptop__write_file", {"path": "a.txt", "content": "x"}),
        ),
    )
    provider = make_provider(
        "openai/fake",
        ProviderOptions(retry=RetryPolicy(attempts=3, base=0.001, cap=0.01)),
        base_url=faulty_openai.url,
    )  # the key comes from os.environ
    desks: list[DesktopEnvironment] = []
    sandbox_pids: list[int] = []
    leaks: list[int] = []

    def environments() -> dict[str, Any]:
        desks.append(DesktopEnvironment(workdir=short_dir, settle_timeout=1.0))
        return {"desktop": desks[-1], "laptop": m.MemoryEnvironment("laptop")}

    class Spy(SingleAgent):
        def act(self, turn: Any) -> Any:
            pids = desks[-1].pids()  # every process of the desktop, while the episode runs
            sandbox_pids.extend(pids)
            leaks.extend(scan_processes(SECRET_KEY, pids))
            return super().act(turn)

    task = Task(
        id="key-leak",
        instruction="Type hello on the desktop and write a.txt on the laptop.",
        nodes={"typed": ev.typed_text(text="hello").on("desktop"),
               "file": m.file_exists("a.txt").on("laptop")},
    )  # fmt: skip
    run_dir = tmp_path / "run"
    config = RunConfig(suite="memory", agent={"name": "model", "model": "openai/fake"}, workers=1)
    write_run_manifest(
        run_dir,
        {"config": config.model_dump(mode="json"), "config_hash": config.config_hash(),
         "versions": versions(), "created": "2025-01-01T00:00:00+00:00"},
    )  # fmt: skip
    store = ResultsStore(run_dir)
    try:
        progress = Runner(config, [task], lambda key: Spy(provider), environments, store).run()
    finally:
        store.close()
    assert progress.results[0].success and faulty_openai.requests == 2
    assert "retrying" in caplog.text
    assert len(sandbox_pids) > 3
    write_report([load_run(run_dir)], run_dir / "report")
    assert (run_dir / "report" / "report.html").exists()
    assert files_containing(run_dir, SECRET_KEY) == []
    assert files_containing(run_dir, SECRET_KEY[-12:]) == []
    assert SECRET_KEY not in caplog.text and SECRET_KEY[-12:] not in caplog.text
    assert leaks == [], "no process of the desktop had the key in its environment"
    # The scan itself finds a key where there is one (so the check above can fail).
    control = subprocess.Popen(["sleep", "60"], env={"OPENAI_API_KEY": SECRET_KEY})
    try:
        found = wait_until(lambda: scan_processes(SECRET_KEY, [control.pid]), timeout=10)
        assert found == [control.pid]
    finally:
        control.kill()
        control.wait(10)


@pytest.mark.parametrize("key", ["..", ".", "...", "a/../..", "../run.json"])
def test_episode_folders_stay_inside_the_episodes_folder(tmp_path: Path, key: str) -> None:
    from reefbench.log.store import ResultsStore

    folder = ResultsStore.episode_folder(tmp_path, key)
    assert folder.resolve().parent == (tmp_path / "episodes").resolve(), folder
