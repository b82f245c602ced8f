"""reef-v0's checkpoints are declared, not guessed: each is a moment or names the state it
governs, and a node is superseded at the end only by a later step on the same state; on a
real desktop, what an earlier subtask made and no later one governs must still be there
at the end (issue 30)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Mapping
from typing import Any

import networkx as nx
import pytest

from reefbench.actions.evaluators import Evaluator, keys_overlap
from reefbench.actions.spec import ActionCall
from reefbench.agents import OracleAgent, ScriptedAgent
from reefbench.benchmark import load
from reefbench.environments.contract import Environment
from reefbench.episodes.episode import Episode
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.suites import get_suite
from reefbench.validation.end_state_case import end_state_problems
from reefbench.validation.gates import used_environments


def _parts(ev: Evaluator) -> Iterator[Evaluator]:
    parts = getattr(ev, "parts", None)
    if parts is None:
        yield ev
    else:
        for part in parts:
            yield from _parts(part)


def test_every_checkpoint_is_a_declared_moment_or_governs_named_state() -> None:
    undeclared = {
        p.ref
        for task in load()
        for node in task.nodes.values()
        for p in _parts(node)
        if not p.moment and p.governs is None
    }
    assert undeclared == set()


def test_supersession_follows_the_graph_and_shared_state() -> None:
    superseded = 0
    for task in load():
        graph = task.graph_evaluator()
        dag = task.evaluator_graph
        for node, ev in task.nodes.items():
            for later, _ in graph.supersession(node):
                assert nx.has_path(dag, node, later), (task.id, node, later)
                assert any(
                    keys_overlap(a, b)
                    for a in ev.state_keys()
                    for b in task.nodes[later].state_keys()
                )
                superseded += 1
    assert superseded > 0


# ------------------------------------------------------------------------ issue 30
PEBBLE = "v1-chain-ac849f3f5e0a"  # pebble.txt made, copied, the copy appended to, copied


class _DeletesBeforeTurn(ScriptedAgent):
    """Plays the reference one call a turn and deletes a desktop file at the start of
    one turn, as a wrong solution's ``rm`` in the terminal would."""

    def __init__(self, calls: list[ActionCall], turn: int, path: str) -> None:
        super().__init__(([c] for c in calls), observe=False)
        self._turn, self._path = turn, path
        self._desktop: Any = None

    def attach(self, envs: Mapping[str, Environment]) -> None:
        super().attach(envs)
        self._desktop = envs["desktop"]

    def act(self, turn: Turn) -> AgentOutput:
        if turn.step == self._turn:
            self._desktop.session.host_path(self._path).unlink()
        return super().act(turn)


@pytest.fixture(scope="module")
def v1_envs() -> Iterator[Mapping[str, Environment]]:
    if not all(shutil.which(t) for t in ("Xvfb", "bwrap", "xdotool", "openbox", "rofi")):
        pytest.skip("needs Xvfb, bubblewrap, xdotool, openbox and rofi")
    envs = get_suite("v1").make_environments()
    yield envs
    for env in envs.values():
        env.stop()


@pytest.mark.integration
def test_a_file_an_earlier_subtask_made_deleted_before_the_last_subtask_fails(
    v1_envs: Mapping[str, Environment],
) -> None:
    task = next(t for t in get_suite("v1").load() if t.id == PEBBLE)
    start = task.metadata.subtasks[-1].solution_span[0]  # the last subtask's first call
    agent = _DeletesBeforeTurn(task.reference_solution, start + 1, "~/Desktop/pebble.txt")
    result = Episode(task, agent, used_environments(task, v1_envs)).run()
    assert not result.success and result.termination == "false_completion"
    cmp = next(n for n in result.regressed if "cmp" in n)
    message = next(c.message for c in result.end_checks if c.node == cmp)
    assert "file /home/user/Desktop/pebble.txt is absent at the end" in message


@pytest.mark.integration
def test_gate_11_undoes_pebble_and_the_oracle_still_succeeds(
    v1_envs: Mapping[str, Environment],
) -> None:
    task = next(t for t in get_suite("v1").load() if t.id == PEBBLE)
    oracle = Episode(task, OracleAgent(observe=False), used_environments(task, v1_envs))
    assert oracle.run().success
    assert end_state_problems(task, oracle) == ([], "~/Desktop/pebble.txt deleted")
