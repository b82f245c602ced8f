"""``reef serve-env`` as a real process: prints its URL and token, serves, stops on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from reefbench.envs.remote import RemoteEnvironment

pytestmark = pytest.mark.integration


def test_serve_env_process_round_trip() -> None:
    command = [
        sys.executable,
        "-m",
        "reefbench.cli",
        "serve-env",
        "memory",
        "--name",
        "phone",
        "--port",
        "0",
    ]
    env = {k: v for k, v in os.environ.items() if k != "REEF_ENV_TOKEN"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip().removeprefix("url=")
        token = process.stdout.readline().strip().removeprefix("token=")
        assert url.startswith("http://127.0.0.1:") and len(token) >= 16
        phone = RemoteEnvironment(url, token)
        phone.reset()
        phone.step("write_file", {"path": "note", "content": "hi"})
        assert phone.name == "phone" and phone.observe() == {"list_files": "note"}
        phone.close()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_unknown_kind_is_a_one_line_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "reefbench.cli", "serve-env", "toaster"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "unknown environment kind 'toaster'" in done.stderr
    assert "Traceback" not in done.stderr


def test_public_bind_needs_explicit_permission() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "reefbench.cli", "serve-env", "memory", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "not a loopback address" in done.stderr
    # the fix it names is the command's own flag, not the Python argument
    assert "add --allow-remote" in done.stderr and "allow_remote=True" not in done.stderr
    assert "Traceback" not in done.stderr
