"""``RemoteEnvironment``: a drop-in :class:`Environment` whose state lives on a server.

Agents see the server's action space (names, descriptions, JSON schemas) exactly as if the
environment were local; calls, setup steps and evaluators travel as JSON (see
:mod:`reefbench.envs.remote.protocol`). Transport failures become
:class:`~reefbench.errors.EnvironmentFailure`, an infrastructure outcome.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Mapping, Sequence
from typing import Any

from reefbench.actions.evaluators import EvalResult, Evaluator
from reefbench.actions.sets import get_action_set
from reefbench.actions.spec import Action
from reefbench.environments.contract import Environment, loggable
from reefbench.envs.remote.protocol import (
    PROTOCOL_VERSION,
    ActionInfo,
    EnvironmentInfo,
    EvaluateReply,
    ObserveReply,
    RefRequest,
    StepReply,
    decode_observation,
)
from reefbench.errors import ActionFailed, EnvironmentFailure, InvalidAction


class RemoteAction(Action):
    """An action known only by its name, description and schema; it runs on the server."""

    def __init__(self, info: ActionInfo) -> None:
        self.func = _remote_only
        self.name = info.name
        self.description = info.description
        self.env_name = None
        self.bound = {}
        self.needs_env = True
        self._schema = info.parameters
        self._validated_bound = None

    @property
    def parameters_schema(self) -> dict[str, Any]:
        schema = copy.deepcopy(self._schema)
        for key in self.bound:
            schema.get("properties", {}).pop(key, None)
            if key in schema.get("required", []):
                schema["required"].remove(key)
        return schema

    def __call__(self, *args: Any, **kwargs: Any) -> RemoteAction:
        if args:
            raise InvalidAction(f"{self.name}: pass arguments by name to a remote action")
        bound = copy.copy(self)
        bound.bound = {**self.bound, **kwargs}
        return bound

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        return {**self.bound, **arguments}  # the server validates against the real schema

    def run(self, env: Any = None, **kwargs: Any) -> Any:
        if not isinstance(env, RemoteEnvironment):
            raise EnvironmentFailure(f"remote action '{self.name}' needs its RemoteEnvironment")
        return env.step(self.name, {**self.bound, **kwargs})


def _remote_only(**kwargs: Any) -> Any:
    raise EnvironmentFailure("remote actions run on their server")


class RemoteEnvironment(Environment):
    """An environment served by ``reef serve-env`` at ``url``, authenticated by ``token``.

    Args:
        url: Base URL, e.g. ``http://127.0.0.1:8765``.
        token: The server's token.
        name: Name in tasks (defaults to the served environment's name).
        timeout: Seconds to wait for any request (actions included).
    """

    def __init__(
        self, url: str, token: str, *, name: str | None = None, timeout: float = 120.0
    ) -> None:
        import httpx

        self._client = httpx.Client(
            base_url=url.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        )
        self.url = url
        version = self._call("GET", "/version")
        if version.get("protocol") != PROTOCOL_VERSION:
            raise EnvironmentFailure(
                f"{url} speaks protocol {version.get('protocol')}, this client {PROTOCOL_VERSION}"
            )
        info = EnvironmentInfo.model_validate(self._call("GET", "/info"))
        super().__init__(
            name or info.name,
            info.description,
            action_space=[RemoteAction(a) for a in info.action_space],
        )
        self.observation_space = {n: _observation(n) for n in info.observation_space}
        self._set_actions = {
            name: [RemoteAction(a) for a in acts] for name, acts in info.action_sets.items()
        }
        self._set_removes = info.action_set_removes
        self._set_observations = {
            name: [_observation(n) for n in names]
            for name, names in info.action_set_observations.items()
        }

    def set_actions(self, action_set: str) -> Sequence[Action]:
        """What the served environment adds for ``action_set`` (its reset adds them there)."""
        return self._set_actions.get(get_action_set(action_set).name, [])

    def set_removes(self, action_set: str) -> Sequence[str]:
        """What the served environment leaves out under ``action_set``."""
        return self._set_removes.get(get_action_set(action_set).name, [])

    def set_observations(self, action_set: str) -> Sequence[Action]:
        """The observations the served environment swaps in under ``action_set`` (by
        name: the server runs them)."""
        return self._set_observations.get(get_action_set(action_set).name, [])

    def close(self) -> None:
        """Close the HTTP connection (the served environment keeps running)."""
        self._client.close()

    # ------------------------------------------------------------- lifecycle
    def on_start(self) -> None:
        self._call("POST", "/start")

    def on_reset(self) -> None:
        self._call("POST", "/reset", {"action_set": self.action_set})

    def on_stop(self) -> None:
        self._call("POST", "/stop")

    def on_health(self) -> bool:
        try:
            return bool(self._call("GET", "/health").get("ok"))
        except EnvironmentFailure:
            return False

    # ----------------------------------------------------------- interaction
    def step(self, action: str | Action, arguments: Mapping[str, Any] | None = None) -> Any:
        name = action if isinstance(action, str) else action.name
        args = {**(action.bound if isinstance(action, Action) else {}), **(arguments or {})}
        started, t0 = time.time(), time.perf_counter()
        reply = StepReply.model_validate(
            self._call("POST", "/step", {"action": name, "arguments": args})
        )
        if reply.status == "invalid":
            raise InvalidAction(reply.error or "invalid action")
        self._log(name, args, reply.result, reply.error, started, t0)
        if reply.status == "failed":
            raise ActionFailed(reply.error or "action failed")
        return reply.result

    def observe(self) -> dict[str, Any]:
        reply = ObserveReply.model_validate(self._call("POST", "/observe"))
        return {k: decode_observation(v) for k, v in reply.observations.items()}

    def execute(self, action: Action) -> Any:
        body = {"ref": action.ref, "arguments": action.json_arguments()}
        return self._call("POST", "/execute", body).get("result")

    def evaluate(self, evaluator: Evaluator) -> EvalResult:
        body = {"ref": evaluator.ref, "arguments": evaluator.json_arguments()}
        reply = EvaluateReply.model_validate(self._call("POST", "/evaluate", body))
        return EvalResult(success=reply.success, message=reply.message, progress=reply.progress)

    def fix_end_state(self, evaluator: Evaluator) -> Evaluator:
        """The server runs the hook on its state and names the resulting check."""
        from reefbench.actions.refs import resolve_ref

        body = {"ref": evaluator.ref, "arguments": evaluator.json_arguments()}
        reply = RefRequest.model_validate(self._call("POST", "/end_state", body))
        check = resolve_ref(reply.ref)(**reply.arguments)
        if not isinstance(check, Evaluator):
            raise EnvironmentFailure(f"{self.url}/end_state named {reply.ref}, not an evaluator")
        return check

    def _call(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        import httpx

        try:
            response = self._client.request(method, path, json=body)
        except httpx.HTTPError as exc:
            raise EnvironmentFailure(f"{self.url}{path}: {type(exc).__name__}: {exc}") from None
        if response.status_code != 200:
            detail = _detail(response)
            raise EnvironmentFailure(f"{self.url}{path}: HTTP {response.status_code}: {detail}")
        data: dict[str, Any] = response.json()
        return data


def _observation(name: str) -> Action:
    """A served observation, known here by name only (``/observe`` runs them all)."""
    return RemoteAction(ActionInfo(name=name, description="", parameters={}))


def _detail(response: Any) -> str:
    try:
        return str(loggable(response.json().get("detail")))
    except ValueError:
        return str(response.text[:200])
