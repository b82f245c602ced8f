"""Built-in agents without a model: random (a floor), replay (a recorded run) and human
(a person at the terminal, who also plays the user for CALL_USER)."""

from __future__ import annotations

import json
import random
import shlex
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TextIO

import pydantic

from reefbench.actions.spec import Action, ActionCall
from reefbench.agents.llm import describe_result
from reefbench.agents.providers.base import parameters_schema
from reefbench.agents.scripted import ScriptedAgent
from reefbench.environments.root import ROOT
from reefbench.episodes.protocol import AgentOutput, Turn
from reefbench.errors import ConfigError, InvalidAction

if TYPE_CHECKING:
    from reefbench.episodes.episode import EpisodeResult
    from reefbench.tasks.task import Task

_WORDS = ("notes", "hello", "a.txt", "report", "42", "draft", "home", "ok", "list", "x")


class RandomAgent:
    """One random valid call per turn, from any environment's action space.

    Arguments are drawn from each action's parameter schema and checked with the action's
    own validation, so every call is valid (actions whose arguments cannot be generated
    are left out). Seeded per task: the same seed and task give the same calls.
    ``finish=False`` leaves out ``complete`` and ``submit``, so the agent explores until
    the step limit.
    """

    name = "random"

    def __init__(self, seed: int = 0, finish: bool = False) -> None:
        self.seed = seed
        self.finish = finish
        self._rng = random.Random(seed)
        self._choices: list[tuple[str, Action]] = []

    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        self._rng = random.Random(f"{self.seed}:{task.id}")
        hidden = set() if self.finish else {"complete", "submit", "infeasible"}
        self._choices = [
            (env, act)
            for env, actions in action_spaces.items()
            for act in actions
            if not (env == ROOT and act.name in hidden)
        ]

    def act(self, turn: Turn) -> AgentOutput:
        rng = self._rng
        while self._choices:
            env, act = rng.choice(self._choices)
            arguments = random_arguments(act, rng)
            if arguments is not None:
                call = ActionCall(env=env, name=act.name, arguments=arguments)
                return AgentOutput(message=f"random: {env}.{act.name}", calls=[call])
            self._choices.remove((env, act))
        return AgentOutput(message="random: no action can be generated")


def random_arguments(act: Action, rng: random.Random, tries: int = 20) -> dict[str, Any] | None:
    """Arguments for ``act`` that pass its validation, or ``None`` after ``tries``."""
    schema = parameters_schema(act)
    for _ in range(tries):
        arguments = _random_value(schema, rng, 0)
        try:
            act.validate(arguments)
        except InvalidAction:
            continue
        return dict(arguments)
    return None


def _random_value(schema: Mapping[str, Any], rng: random.Random, depth: int) -> Any:
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return _random_value(rng.choice(schema[key]), rng, depth)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = rng.choice(kind)
    if kind == "string":
        low, high = schema.get("minLength", 1), schema.get("maxLength", 24)
        text = rng.choice(_WORDS)
        while len(text) < low:
            text += rng.choice(_WORDS)
        return text[:high]
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", -1) + 1)
        high = schema.get("maximum", schema.get("exclusiveMaximum", low + 101) - 1)
        if kind == "integer":
            return rng.randint(int(low), int(high))
        return rng.uniform(float(low), float(high))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "array":
        count = rng.randint(schema.get("minItems", 0), schema.get("maxItems", 3))
        items = schema.get("items", {"type": "string"})
        return [_random_value(items, rng, depth + 1) for _ in range(count)]
    if kind == "object" or "properties" in schema:
        required = set(schema.get("required", []))
        return {
            name: _random_value(prop, rng, depth + 1)
            for name, prop in schema.get("properties", {}).items()
            if name in required or (depth < 3 and rng.random() < 0.5)
        }
    return rng.choice(_WORDS)


class ReplayAgent(ScriptedAgent):
    """Replays the action calls of recorded episodes, turn by turn, then ``complete()``.

    Records of turns the model got wrong (no action, unreadable output) are not replayed.

    Args:
        results: Recorded episode results; the one whose ``task_id`` matches is replayed.
    """

    name = "replay"

    def __init__(self, results: Iterable[EpisodeResult]) -> None:
        super().__init__()
        self._results = {r.task_id: r for r in results}
        self._messages: list[str] = []

    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        recorded = self._results.get(task.id)
        if recorded is None:
            raise ConfigError(f"replay: no recorded episode of task {task.id!r}")
        self._script, self._messages = [], []
        for record in recorded.trajectory:
            calls = [
                ActionCall(env=c.env, name=c.name, arguments=c.arguments)
                for c in record.calls
                if not c.name.startswith("<")
            ]
            if calls:
                self._script.append(calls)
                self._messages.append(record.message)
        self._next = 0

    def act(self, turn: Turn) -> AgentOutput:
        index = self._next
        output = super().act(turn)
        if index < len(self._messages):
            output.message = self._messages[index]
        return output


class HumanAgent:
    """A person acts from the terminal, and answers when the agent side calls the user.

    Each turn shows the results of the last call, the observations (text in full, images
    by size) and the actions; the person types one call, either as JSON
    (``{"env": "laptop", "name": "write_file", "arguments": {...}}``) or as
    ``laptop.write_file path=a.txt content="hello world"``. Mistakes are explained and the
    person tries again; nothing reaches an environment until the call validates.
    """

    name = "human"

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None) -> None:
        self._in = input or sys.stdin
        self._out = output or sys.stdout
        self._spaces: dict[str, dict[str, Action]] = {}

    def reset(
        self,
        task: Task,
        action_spaces: Mapping[str, list[Action]],
        descriptions: Mapping[str, str],
    ) -> None:
        self._spaces = {env: {a.name: a for a in actions} for env, actions in action_spaces.items()}
        self._say(f"\nTask {task.id}: {task.instruction}")
        for env, text in descriptions.items():
            self._say(f"  {env}: {text}")
        self._say("Type one action per turn, e.g. laptop.write_file path=a.txt content=hi")
        self._say("('help' lists the actions).")

    def act(self, turn: Turn) -> AgentOutput:
        self._say(f"\n--- step {turn.step} ---")
        for result in turn.previous:
            self._say(f"last: {describe_result(result)}")
        for env, values in turn.observations.items():
            for name, value in values.items():
                shown = f"<{len(value)} bytes>" if isinstance(value, bytes) else value
                self._say(f"[{env}] {name}:\n{shown}")
        while True:
            line = self._ask("action> ")
            if line in ("help", "?"):
                self._say(self._menu())
                continue
            if not line:
                continue
            call = self._parse(line)
            if isinstance(call, str):
                self._say(f"not accepted: {call}")
                continue
            return AgentOutput(message=f"human: {line}", calls=[call])

    def answer_user(self, kind: str) -> str | None:
        """Play the user: the agent side asked for ``kind`` (e.g. a password)."""
        answer = self._ask(f"The agent asks you for '{kind}'. Your answer (empty: refuse): ")
        return answer or None

    # ---------------------------------------------------------------- helpers
    def _ask(self, prompt: str) -> str:
        self._out.write(prompt)
        self._out.flush()
        line = self._in.readline()
        if not line:
            raise EOFError("human agent: the terminal input was closed")
        return line.strip()

    def _say(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()

    def _menu(self) -> str:
        lines = []
        for env, actions in self._spaces.items():
            for act in actions.values():
                params = ", ".join(parameters_schema(act).get("properties", {}))
                summary = act.description.split("\n")[0]
                lines.append(f"  {env}.{act.name}({params}): {summary}")
        return "\n".join(lines)

    def _parse(self, line: str) -> ActionCall | str:
        if line.startswith("{"):
            try:
                value = json.loads(line)
                call = ActionCall.model_validate(value)
            except (json.JSONDecodeError, pydantic.ValidationError) as exc:
                return f"JSON call must be {{'env', 'name', 'arguments'}}: {exc}"
        else:
            try:
                head, *pairs = shlex.split(line)
            except ValueError as exc:
                return f"cannot split the line: {exc}"
            env, dot, name = head.partition(".")
            if not dot:
                return "start with environment.action, e.g. laptop.write_file"
            act = self._spaces.get(env, {}).get(name)
            properties = parameters_schema(act).get("properties", {}) if act else {}
            arguments: dict[str, Any] = {}
            for pair in pairs:
                key, eq, raw = pair.partition("=")
                if not eq:
                    return f"'{pair}' is not key=value"
                arguments[key] = _typed(raw, properties.get(key, {}))
            call = ActionCall(env=env, name=name, arguments=arguments)
        actions = self._spaces.get(call.env)
        if actions is None:
            return f"no environment '{call.env}' (environments: {', '.join(self._spaces)})"
        act = actions.get(call.name)
        if act is None:
            return f"'{call.env}' has no action '{call.name}' (type 'help')"
        try:
            act.validate(call.arguments)
        except InvalidAction as exc:
            return str(exc)
        return call


def _typed(raw: str, prop: Mapping[str, Any]) -> Any:
    """Strings stay strings; other parameters are read as JSON (numbers, lists, true)."""
    if prop.get("type") == "string":
        return raw
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw
