"""Model strings, keys from the environment, and SDKs that are only imported when used."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reefbench.agents.providers import ModelSpec, make_provider, parse_model
from reefbench.errors import ConfigError


def test_parse_model_strings() -> None:
    assert parse_model("openai/gpt-4o") == ModelSpec("openai", "gpt-4o")
    assert parse_model("anthropic/claude-sonnet-4-5") == ModelSpec("anthropic", "claude-sonnet-4-5")
    assert parse_model("google/gemini-2.5-pro") == ModelSpec("google", "gemini-2.5-pro")
    assert parse_model("gemini/gemini-2.5-pro").provider == "google"
    spec = parse_model("openai-compatible/Qwen/Qwen2.5-VL-7B@http://127.0.0.1:8000/v1/")
    assert spec == ModelSpec("openai-compatible", "Qwen/Qwen2.5-VL-7B", "http://127.0.0.1:8000/v1")
    assert str(spec) == "openai-compatible/Qwen/Qwen2.5-VL-7B@http://127.0.0.1:8000/v1"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt-4o", "use 'provider/model'"),
        ("mistral/large", "unknown provider 'mistral'"),
        ("openai-compatible/qwen", "needs its server"),
        ("openai/gpt-4o@http://x", "only openai-compatible models take '@base_url'"),
        ("openai-compatible/m@http://user:pw@host/v1", "may not carry credentials"),
        ("openai-compatible/m@http://host/v1?key=1", "may not carry credentials"),
    ],
)
def test_bad_model_strings_say_how_to_fix_them(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_model(spec)


def test_a_missing_key_names_the_variable() -> None:
    with pytest.raises(ConfigError, match="set ANTHROPIC_API_KEY in the environment"):
        make_provider("anthropic/claude", environ={})
    with pytest.raises(ConfigError, match="GEMINI_API_KEY or GOOGLE_API_KEY"):
        make_provider("google/gemini", environ={"OPENAI_API_KEY": "k"})
    provider = make_provider("google/gemini", environ={"GOOGLE_API_KEY": "k"})
    assert provider.name == "google/gemini"


BLOCK_SDKS = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('openai', 'anthropic', 'google', 'PIL'):
            raise ImportError('blocked for the test: ' + name)
sys.meta_path.insert(0, Block())
"""


def test_reefbench_imports_without_any_sdk() -> None:
    code = BLOCK_SDKS + (
        "import reefbench, reefbench.agents, reefbench.agents.providers, reefbench.cli\n"
        "from reefbench.agents.providers import make_provider\n"
        "from reefbench.errors import ConfigError\n"
        "try:\n"
        "    make_provider('openai/gpt-4o', environ={'OPENAI_API_KEY': 'k'})\n"
        "except ConfigError as e:\n"
        "    print(e)\n"
        "sdks = ('openai', 'anthropic', 'google')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in sdks))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert (
        lines[0] == "the openai provider needs the openai package: pip install 'reefbench[openai]'"
    )
    assert lines[1] == "[]"
