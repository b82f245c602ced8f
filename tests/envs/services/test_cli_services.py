"""``reef services serve`` as a real process: prints URL and token, stops on Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pytestmark = pytest.mark.integration


@contextmanager
def serving() -> Iterator[subprocess.Popen[str]]:
    """``reef services serve`` as a real process, killed if a test leaves it running."""
    code = "from reefbench.cli import main; main()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "services", "serve"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_serve_prints_url_and_token_and_stops_on_interrupt() -> None:
    with serving() as proc:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        token_line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+", first)
        assert url, first
        token = token_line.split(":", 1)[1].strip()
        with urllib.request.urlopen(url.group(0) + "/login", timeout=5) as page:
            assert page.status == 200
        request = urllib.request.Request(
            url.group(0) + "/internal/health", headers={"Authorization": f"Bearer {token}"}
        )
        with urllib.request.urlopen(request, timeout=5) as health:
            assert health.status == 200
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0


def test_a_stop_signal_right_after_start_up_is_never_lost() -> None:
    """SIGTERM as soon as the URL appears (the token line may still be on its way): the
    signals are blocked before the server starts, so the stop is queued, not raced."""
    with serving() as proc:
        assert proc.stdout is not None
        assert "services at http://127.0.0.1:" in proc.stdout.readline()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        assert proc.stderr is not None and "Traceback" not in proc.stderr.read()


def test_serve_rejects_a_bad_port_in_one_line() -> None:
    code = "from reefbench.cli import main; main()"
    result = subprocess.run(
        [sys.executable, "-c", code, "services", "serve", "--port", "70000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "--port 70000 is not a port number" in result.stderr
    assert "Traceback" not in result.stderr
