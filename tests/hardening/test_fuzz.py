"""Fuzzing with hypothesis: untrusted input meets only the errors made for it.

Three surfaces take input reefbench does not control: task files (shared, downloaded),
action arguments (written by a model) and the remote-environment protocol (anything on
the network that reaches the port). For each, arbitrary and mutated input must end in the
surface's defined error — :class:`TaskLoadError`/:class:`ConfigError`,
:class:`InvalidActionArguments`, a 4xx JSON reply — never another exception, a 500 or a
hang. Example counts and deadlines keep the module to well under two minutes.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reefbench.actions.spec import Action
from reefbench.errors import ConfigError, InvalidActionArguments
from reefbench.tasks.taskfile import task_from_dict, task_to_dict

FAST = settings(
    max_examples=200,
    deadline=10_000,  # per example: generous, so a busy CI machine does not fail it
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,
)

# JSON values: what json.loads can produce (with keys and strings that look like ours).
KEYS = st.sampled_from(
    ["schema_version", "id", "instruction", "nodes", "edges", "setup", "teardown", "env",
     "evaluator", "args", "all", "any", "not", "action", "subtasks", "template", "links",
     "attributes", "tasks", "adjlist", "description", "metadata", "reference_solution",
     "name", "arguments", "path", "content", "user_data", "step_limit"]
) | st.text(max_size=12)  # fmt: skip
REFS = st.sampled_from(
    ["reefbench.envs.memory:file_exists", "reefbench.envs.memory:write_file",
     "reefbench.envs.memory:MEMORY_ACTIONS", "os:system", ".os:system", "..:x", "reefbench..x:y",
     "reefbench.envs.memory:os.system", "reefbench:__class__", "a\x00b:c", ":", "x:"]
)  # fmt: skip
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | REFS
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=6),
    max_leaves=25,
)


# ------------------------------------------------------------------ task files
def _valid_documents() -> list[dict[str, Any]]:
    from reefbench.suites import memory

    return [task_to_dict(t) for t in memory.load()]


DOCUMENTS = _valid_documents()


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (dict keys and list indexes) inside a JSON document."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _paths(value, (*prefix, i))
    return found


@st.composite
def mutated_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid task document with a few values replaced, deleted or given new keys."""
    document = copy.deepcopy(draw(st.sampled_from(DOCUMENTS)))
    for _ in range(draw(st.integers(1, 4))):
        paths = [p for p in _paths(document) if p]
        path = draw(st.sampled_from(paths))
        parent: Any = document
        for part in path[:-1]:
            parent = parent[part]
        operation = draw(st.sampled_from(["replace", "delete", "add"]))
        if operation == "replace":
            parent[path[-1]] = draw(JSON)
        elif operation == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(KEYS)] = draw(JSON)
        else:
            parent.append(draw(JSON))
    return document


def _load(data: Any) -> None:
    try:
        task_from_dict(data, where="fuzz.json")
    except ConfigError as exc:  # TaskLoadError is a ConfigError
        message = str(exc)
        assert message and "\n" not in message.strip(), message


@FAST
@given(JSON)
def test_arbitrary_json_loads_or_fails_with_a_task_load_error(data: Any) -> None:
    _load(data)


@FAST
@given(mutated_documents())
def test_mutated_task_documents_load_or_fail_with_a_task_load_error(data: dict[str, Any]) -> None:
    _load(data)


@pytest.mark.parametrize(
    "data",
    [
        {"id": "a\nb", "schema_version": 2},  # model- or user-made text in the message
        {"schema_version": 1, "id": "x", "instruction": "i", "nodes": {"a\nb": {}}},
        {"schema_version": 1, "id": "x", "instruction": "i",
         "nodes": {"n": {"evaluator": ".os:system"}}},  # a relative import: was a TypeError
    ],
)  # fmt: skip
def test_found_by_fuzzing(data: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        task_from_dict(data)
    _load(data)


def test_an_argument_name_with_a_newline_gives_a_one_line_error() -> None:
    from reefbench.envs.desktop import DESKTOP_ACTIONS

    with pytest.raises(InvalidActionArguments) as caught:
        DESKTOP_ACTIONS[0].validate({"\n": None})
    assert "\n" not in str(caught.value)


def test_the_unmutated_documents_load() -> None:
    """The mutation fuzz starts from documents that are valid (else it proves nothing)."""
    assert len(DOCUMENTS) == 8
    for document in DOCUMENTS:
        assert task_from_dict(copy.deepcopy(document)).id == document["id"]


# ------------------------------------------------------------------ action arguments
def _rich_actions() -> list[Action]:
    """Actions with rich signatures: literals, bounded ints, lists, optionals, defaults."""
    from reefbench.envs import memory
    from reefbench.envs.desktop import DESKTOP_ACTIONS, DESKTOP_EVALUATORS, SETUP_ACTIONS

    return [*DESKTOP_ACTIONS, *SETUP_ACTIONS, *DESKTOP_EVALUATORS[:8], *memory.MEMORY_ACTIONS]


ACTIONS = _rich_actions()
ARGUMENT_NAMES = st.sampled_from(
    sorted({n for a in ACTIONS for n in a.parameters_schema["properties"]})
) | st.text(max_size=8)


@FAST
@given(st.sampled_from(ACTIONS), st.dictionaries(ARGUMENT_NAMES, JSON, max_size=6))
def test_arbitrary_arguments_validate_or_raise_invalid_action_arguments(
    target: Action, arguments: dict[str, Any]
) -> None:
    try:
        target.validate(arguments)
    except InvalidActionArguments as exc:
        assert exc.action == target.name and "\n" not in str(exc)
    try:
        target(**arguments)  # binding validates each value too
    except InvalidActionArguments as exc:
        assert exc.action == target.name


@FAST
@given(st.sampled_from(ACTIONS), st.dictionaries(ARGUMENT_NAMES, JSON, max_size=6))
def test_run_rejects_bad_arguments_before_touching_the_environment(
    target: Action, arguments: dict[str, Any]
) -> None:
    """``run`` validates first: with invalid arguments the function body never runs."""

    class Untouchable:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"the action touched the environment ({name}) before validating")

    try:
        target.validate(arguments)
    except InvalidActionArguments:
        with pytest.raises(InvalidActionArguments):
            target.run(Untouchable(), **arguments)


# ------------------------------------------------------------------ remote protocol
TOKEN = secrets.token_urlsafe(24)
ENDPOINTS = ["/start", "/reset", "/step", "/observe", "/execute", "/evaluate", "/stop"]


@pytest.fixture(scope="module")
def served() -> Iterator[Any]:
    import httpx

    from reefbench.envs.memory import MemoryEnvironment
    from reefbench.envs.remote.server import create_app
    from reefbench.plumbing.net import ServedApp

    app = ServedApp(create_app(MemoryEnvironment("laptop"), TOKEN, max_body=64 * 1024))
    client = httpx.Client(
        base_url=app.url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10
    )
    yield client
    client.close()
    app.stop()


STEP_BODIES = st.fixed_dictionaries(
    {"action": st.sampled_from(["write_file", "read_file", "copy_file", "fly"]) | st.text()},
    optional={"arguments": st.dictionaries(ARGUMENT_NAMES, JSON, max_size=4)},
)
REF_BODIES = st.fixed_dictionaries(
    {"ref": REFS | st.sampled_from(
        ["reefbench.envs.desktop.actions:click", "reefbench.envs.desktop.evaluators:file_exists",
         "reefbench.envs.services.seeding:add_contact", "reefbench.envs.memory:file_equals"]
    )},
    optional={"arguments": st.dictionaries(ARGUMENT_NAMES, JSON, max_size=4)},
)  # fmt: skip


@pytest.mark.integration
@settings(FAST, max_examples=250)
@given(st.sampled_from(ENDPOINTS), JSON | STEP_BODIES | REF_BODIES)
def test_any_json_body_gets_a_json_reply_that_is_never_a_500(
    served: Any, endpoint: str, body: Any
) -> None:
    import json

    content = json.dumps(body, allow_nan=True).encode()
    response = served.post(endpoint, content=content, headers={"content-type": "application/json"})
    assert response.status_code == 200 or 400 <= response.status_code < 500, (
        endpoint,
        body,
        response.status_code,
        response.text[:300],
    )
    response.json()  # every reply is JSON


@pytest.mark.integration
def test_the_server_is_healthy_after_the_fuzzing(served: Any) -> None:
    """The fuzz may have ended on /stop: the server still answers and the env restarts."""
    assert served.post("/reset").status_code == 200
    assert served.get("/health").json() == {"ok": True}
    body = {"action": "write_file", "arguments": {"path": "a", "content": "b"}}
    assert served.post("/step", json=body).json()["status"] == "ok"
