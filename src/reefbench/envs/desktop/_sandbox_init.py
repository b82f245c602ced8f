"""Init process of a desktop sandbox (runs INSIDE bubblewrap under /usr/bin/python3).

Stdlib only: it must not import reefbench. It starts the session's D-Bus bus, the
accessibility bus, the window manager and the session's programs (panel, desktop), relays
the allowed local-service ports into the sandbox's loopback, then serves JSON-line
requests from the harness on stdin:

    {"id": 1, "op": "spawn", "argv": [...], "env": {...}}   -> {"id": 1, "ok": true, "pid": 42}
    {"id": 2, "op": "run", "argv": [...], "limit": 5}     -> {"ok": true, "rc": 0, "stdout": ...}
    {"id": 3, "op": "kill", "pid": 42}                       -> {"ok": true}
    {"id": 4, "op": "ps"}                                    -> {"ok": true, "processes": [...]}
    {"id": 5, "op": "ping"}                                  -> {"ok": true}

Commands are argv lists executed without a shell. The first line written to stdout is
``{"ready": true}`` once the buses and the window manager are up (or ``{"ready": false,
"error": ...}``).

When its stdin closes (the harness stopped it, or died: the harness holds the only write
end, so even a SIGKILLed harness closes it) or it gets SIGTERM/SIGHUP, it kills every
other process of the sandbox before it exits. bubblewrap's pid 1 waits for *all* its
children, so an init that merely exited left the buses, xfconfd and at-spi (daemons the
bus started) and the namespace running, orphaned.
"""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import IO, Any

_OUTPUT_CAP = 1 << 20


def _wait_for(path: str, deadline: float) -> bool:
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return True
        time.sleep(0.005)
    return False


def _log(name: str, runtime: str) -> IO[bytes]:
    logs = os.path.join(runtime, "logs")
    os.makedirs(logs, exist_ok=True)
    return open(os.path.join(logs, name + ".log"), "ab")


def _start(
    argv: list[str], runtime: str, name: str, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=_log(name, runtime),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env=env,
    )


def _end_sandbox(*_: Any) -> None:
    """Kill every other process of this pid namespace, then exit (bwrap's pid 1 follows).

    kill(-1) from inside the namespace reaches exactly its processes (never the host's)
    and spares pid 1 and the caller."""
    with contextlib.suppress(OSError):
        os.kill(-1, signal.SIGKILL)
    os._exit(0)


# ------------------------------------------------------------------ port relay
def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)


def _relay(client: socket.socket, unix_path: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(unix_path)
    except OSError:
        client.close()
        upstream.close()
        return
    t = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
    t.start()
    _pump(client, upstream)
    t.join()
    client.close()
    upstream.close()


def _serve_port(port: int, unix_path: str) -> None:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)

    def accept_loop() -> None:
        while True:
            client, _ = listener.accept()
            threading.Thread(target=_relay, args=(client, unix_path), daemon=True).start()

    threading.Thread(target=accept_loop, daemon=True).start()


def _bring_up_loopback() -> None:
    # bwrap --unshare-net already sets lo up; this only double-checks it is usable.
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind(("127.0.0.1", 0))
    finally:
        probe.close()


# ---------------------------------------------------------------------- requests
def _ps() -> list[dict[str, Any]]:
    out = []
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        pid = int(entry)
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
            with open(f"/proc/{pid}/comm") as f:
                comm = f.read().strip()
        except OSError:
            continue
        if pid == me or not cmdline:
            continue
        out.append({"pid": pid, "comm": comm, "cmdline": cmdline})
    return out


def _handle(
    request: dict[str, Any],
    children: dict[int, subprocess.Popen[bytes]],
    runtime: str,
    base_env: dict[str, str],
) -> dict[str, Any]:
    op = request.get("op")
    if op == "ping":
        return {}
    if op == "spawn":
        env = dict(base_env)
        env.update(request.get("env") or {})
        proc = _start(request["argv"], runtime, request.get("name") or "app", env)
        children[proc.pid] = proc
        return {"pid": proc.pid}
    if op == "run":
        env = dict(base_env)
        env.update(request.get("env") or {})
        try:
            done = subprocess.run(
                request["argv"],
                input=(request.get("input") or "").encode(),
                capture_output=True,
                timeout=float(request.get("limit") or 10),
                env=env,
                cwd=request.get("cwd") or os.environ.get("HOME"),
                start_new_session=True,
            )
        except subprocess.TimeoutExpired:
            return {"rc": None, "stdout": "", "stderr": "timed out", "timeout": True}
        except OSError as exc:
            return {"rc": None, "stdout": "", "stderr": str(exc)}
        return {
            "rc": done.returncode,
            "stdout": done.stdout[:_OUTPUT_CAP].decode("utf-8", "replace"),
            "stderr": done.stderr[:_OUTPUT_CAP].decode("utf-8", "replace"),
        }
    if op == "kill":
        pid = int(request["pid"])
        sig = int(request.get("signal") or signal.SIGTERM)
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            pass
        except PermissionError:
            os.kill(pid, sig)
        return {}
    if op == "ps":
        for pid, proc in list(children.items()):
            if proc.poll() is not None:
                del children[pid]
        return {"processes": _ps()}
    raise ValueError(f"unknown op {op!r}")


def main() -> int:
    for stop in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(stop, _end_sandbox)
    try:
        return _serve(json.loads(sys.argv[1]))
    finally:
        _end_sandbox()


def _serve(config: dict[str, Any]) -> int:
    runtime = os.environ["XDG_RUNTIME_DIR"]
    base_env = dict(os.environ)
    out = sys.stdout
    deadline = time.monotonic() + float(config.get("timeout", 15))
    bus = os.path.join(runtime, "bus")
    try:
        _start(
            [
                "dbus-daemon",
                "--session",
                f"--address=unix:path={bus}",
                "--nofork",
                "--nopidfile",
                "--nosyslog",
            ],
            runtime,
            "dbus",
        )
        if not _wait_for(bus, deadline):
            raise RuntimeError("the D-Bus session bus did not come up")
        _start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], runtime, "atspi")
        display = os.environ["DISPLAY"].lstrip(":").split(".")[0]
        if not _wait_for(os.path.join(runtime, "at-spi", f"bus_{display}"), deadline):
            raise RuntimeError("the accessibility bus did not come up")
        if config.get("wm"):
            _start(config["wm"], runtime, "wm")
        for argv in config.get("session") or ():
            _start(argv, runtime, os.path.basename(argv[0]))
        _bring_up_loopback()
        for port, path in (config.get("ports") or {}).items():
            _serve_port(int(port), path)
    except Exception as exc:  # reported to the harness, which fails the start
        out.write(json.dumps({"ready": False, "error": str(exc)}) + "\n")
        out.flush()
        return 1
    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()

    children: dict[int, subprocess.Popen[bytes]] = {}
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        reply = {"id": request.get("id")}
        try:
            reply.update(_handle(request, children, runtime, base_env))
            reply["ok"] = True
        except Exception as exc:
            reply.update(ok=False, error=f"{type(exc).__name__}: {exc}")
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
