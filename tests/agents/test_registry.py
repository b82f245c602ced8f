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


# ------------------------------------------------------------------ the provider table
def test_every_reader_of_the_table_lists_exactly_its_providers() -> None:
    from reefbench.agents.providers.registry import KEY_VARIABLES, PROVIDERS, TABLE
    from reefbench.host.doctor import provider_checks
    from reefbench.runner.config import versions

    names = [info.name for info in TABLE]
    assert list(PROVIDERS) == names and list(KEY_VARIABLES) == names
    assert list(versions()["providers"]) == names
    assert [c.name for c in provider_checks()] == [f"provider {n}" for n in names]
    for info in TABLE:
        # Every provider's SDK is installed in the test environment: its version is known.
        assert versions()["providers"][info.name]["version"], info.name
        # The computer-use column is read by run.json's versions and by reef doctor.
        assert versions()["providers"][info.name]["computer_use"] == info.computer_use
        assert (info.computer_use is None) == (info.native is None), info.name
    with_native = {info.name for info in TABLE if info.computer_use}
    assert with_native == {"openai", "anthropic", "google"}
    for check in provider_checks():
        name = check.name.removeprefix("provider ")
        assert ("native computer use" in check.detail) == (name in with_native)


def test_reef_run_help_lists_exactly_the_table() -> None:
    import os
    import re

    from reefbench.agents.providers.registry import TABLE

    env = {**os.environ, "COLUMNS": "400"}
    done = subprocess.run(
        [sys.executable, "-m", "reefbench.cli", "run", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    text = " ".join(re.sub(r"[│|]", " ", done.stdout).split())
    shown = re.findall(r"([a-z-]+)/<model>", text)
    assert shown == [info.name for info in TABLE]
    for info in TABLE:
        for variable in info.key_variables:
            assert variable in text


@pytest.mark.parametrize(
    ("model", "sdk", "line"),
    [
        ("anthropic/claude", "anthropic", "the anthropic provider needs the anthropic package"),
        ("google/gemini", "google.genai", "the google provider needs the google-genai package"),
        ("gemini/gemini", "google.genai", "pip install 'reefbench[google]'"),
        ("openai-compatible/m@http://127.0.0.1:9/v1", "openai", "pip install 'reefbench[openai]'"),
    ],
)
def test_a_provider_missing_its_sdk_names_the_extra(
    model: str, sdk: str, line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, sdk, None)  # the next import of it raises ImportError
    keys = {"ANTHROPIC_API_KEY": "k", "GEMINI_API_KEY": "k"}
    with pytest.raises(ConfigError) as missing:
        make_provider(model, environ=keys)
    assert line in str(missing.value) and "\n" not in str(missing.value)


def test_the_default_tool_mode_comes_from_the_table() -> None:
    from reefbench.agents.providers.registry import provider_info

    assert provider_info("openai-compatible").tool_mode == "json"
    assert provider_info("gemini") is provider_info("google")
    assert {provider_info(n).tool_mode for n in ("openai", "anthropic", "google")} == {"native"}


def test_each_provider_speaks_the_schema_dialect_its_entry_declares() -> None:
    from reefbench.agents.providers.registry import TABLE

    for info in TABLE:
        model = "m@http://127.0.0.1:9/v1" if info.name == "openai-compatible" else "m"
        keys = dict.fromkeys(info.key_variables, "k")
        provider = make_provider(f"{info.name}/{model}", environ=keys)
        assert getattr(provider, "dialect", None) == info.dialect, info.name
