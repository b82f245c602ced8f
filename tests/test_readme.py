"""The README's Python tour runs as written (its blocks share one namespace, in order)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 5
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    result = namespace["result"]
    assert getattr(result, "termination") == "success"  # noqa: B009
    assert namespace["reward"] == 0.0 and namespace["terminated"] is False
