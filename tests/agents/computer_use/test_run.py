"""A run as ``reef run`` makes it (configuration, the computer-use rule, agents from the
spec, the runner, the results store): each provider's computer-use model completes a
reef-v0 browser task against its local wire server, the SDK finding the server through its
own base-URL variable as it would find the real API."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from reefbench.environments.contract import Environment

from .conftest import ENVIRON, MODELS, Request, Said, WireServer
from .test_real_devices import TASKS, Player, pytestmark  # noqa: F401

BASE_URL_VARIABLES = {
    "anthropic": "ANTHROPIC_BASE_URL",
    "openai": "OPENAI_BASE_URL",
    "google": "GOOGLE_GEMINI_BASE_URL",
}
# The Anthropic model's name says nothing: the run asks for computer use (as the pixels
# action set will); the others are computer-use models by name.
FLAGS: dict[str, dict[str, Any]] = {"anthropic": {"computer_use": "on"}, "openai": {}, "google": {}}


def test_a_run_completes_a_reef_v0_task_through_each_interface(
    server: WireServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import reefbench.benchmark as v0
    from reefbench.log.store import ResultsStore
    from reefbench.runner.agents import agent_from_spec
    from reefbench.runner.config import RunConfig
    from reefbench.runner.launch import launch

    for variable, value in ENVIRON.items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setenv(BASE_URL_VARIABLES[server.wire], server.base_url)
    made: dict[str, Mapping[str, Environment]] = {}
    original = v0.make_environments

    def remembered() -> Mapping[str, Environment]:
        made["envs"] = original()
        return made["envs"]

    monkeypatch.setattr(v0, "make_environments", remembered)
    task_id = TASKS["browser"]
    player: list[Player] = []

    def brain(request: Request) -> list[Said]:
        if not player:  # the solution of the task the runner loaded
            tasks = {t.id: t for t in v0.load() if t.id == task_id}
            player.append(Player(made["envs"]["browser"], list(tasks[task_id].reference_solution)))
        return player[0](request)

    server.brain = brain
    config = RunConfig.model_validate(
        {
            "suite": "v0",
            "tasks": [task_id],
            "workers": 1,
            "max_infra_retries": 0,
            "agent": {
                "name": "model",
                "model": f"{server.wire}/{MODELS[server.wire]}",
                "options": FLAGS[server.wire],
            },
        }
    )
    assert config.agent.options["computer_use"] == "on"
    out = tmp_path / "run"
    launch(config, out, lambda key: agent_from_spec(config.agent, key))
    store = ResultsStore(out)
    try:
        (result,) = store.results(trajectory=True)
    finally:
        store.close()
    assert result.success, (
        result.termination,
        result.error,
        [(t.message, t.calls) for t in result.trajectory],
    )
    assert result.agent.endswith("computer-use")
    played = {c.name for turn in result.trajectory for c in turn.calls}
    assert "click_at" in played and "click_on" not in played and "click" not in played
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["config"]["agent"]["options"]["computer_use"] == "on"
    assert server.requests, "the SDK did not reach the local server"
