"""``reef pool lint`` checks: import failures as one line, and every template's generators."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import networkx as nx

from reefbench.actions.spec import ActionCall
from reefbench.compose.lint import lint_pool, lint_reference
from reefbench.envs import memory as m
from reefbench.suites.memory import POOL as MEMORY_POOL
from reefbench.tasks.subtask import SubTask

BROKEN_MODULE = """
from reefbench.envs import memory as m
from reefbench.tasks.subtask import SubTask

POOL = {
    "bad": SubTask(
        id="bad",
        description='Copy "{source}" to "{destination}".',
        attributes={"source": "file_path"},
        env="laptop",
        evaluator_generator=lambda source: m.file_exists(source),
    )
}
"""


def _template(**changes: Any) -> SubTask:
    fields: dict[str, Any] = dict(
        id="t",
        description='Write "{path}".',
        attributes={"path": "file_path"},
        output_type="file_path",
        outputs=["file_path"],
        env="laptop",
        intents=["x"],
        value_pools={"path": ["a.txt"]},
        evaluator_generator=lambda path: m.file_exists(path),
        solution_generator=lambda path: [
            ActionCall(env="laptop", name="write_file", arguments={"path": path, "content": ""})
        ],
        output_generator=lambda path: path,
    )
    fields.update(changes)
    return SubTask(**fields)


def test_a_placeholder_without_attribute_is_one_error_line(tmp_path: Path) -> None:
    module = tmp_path / "broken_pool.py"
    module.write_text(BROKEN_MODULE)
    problems = lint_reference(f"{module}:POOL")
    assert len(problems) == 1
    (problem,) = problems
    assert problem.severity == "error"
    assert "placeholder {destination} in the description has no attribute" in problem.message
    assert "\n" not in str(problem)


def test_a_template_that_skipped_validation_is_still_caught() -> None:
    unchecked = _template().model_copy(update={"description": 'Write "{path}" to "{target}".'})
    problems = lint_pool({"t": unchecked})
    assert [p.severity for p in problems] == ["error"]
    assert "placeholder {target}" in problems[0].message


def test_clean_pools_lint_clean() -> None:
    assert lint_pool({"t": _template()}) == []
    from reefbench.suites.demo import POOL

    assert lint_pool(POOL, "demo") == []
    warnings = lint_pool(MEMORY_POOL)
    assert warnings and all(p.severity == "warning" for p in warnings)


def test_generators_are_run_on_sample_values() -> None:
    def cyclic(path: str) -> nx.DiGraph:
        a, b = m.file_exists(path), m.file_exists(path + ".bak")
        graph: nx.DiGraph = nx.DiGraph()
        graph.add_edge(a, b)
        graph.add_edge(b, a)
        return graph

    def crash(path: str) -> Any:
        raise KeyError(path)

    cases = {
        "cycle": (_template(evaluator_generator=cyclic), "evaluator subgraph is invalid"),
        "crash": (_template(evaluator_generator=crash), "evaluator_generator raised KeyError"),
        "not-eval": (_template(evaluator_generator=lambda path: 42), "must return an Evaluator"),
        "solution": (
            _template(solution_generator=lambda path: ["write it"]),
            "solution_generator must return a list of ActionCall",
        ),
        "output": (_template(output_generator=lambda path: 7), "output_generator returned int 7"),
        "pool-type": (_template(value_pools={"path": [3]}), "attribute 'path' must be file_path"),
        "inputs": (_template(inputs=["nope"]), "input 'nope' is not an attribute"),
    }
    for name, (template, message) in cases.items():
        errors = [p for p in lint_pool({"t": template}) if p.severity == "error"]
        assert errors, name
        assert message in errors[0].message, (name, errors)
        assert "sample values" in errors[0].message or name in ("pool-type", "inputs")


def test_warnings_explain_what_synthesis_will_do() -> None:
    no_output = _template(output_generator=None)
    messages = [p.message for p in lint_pool({"t": no_output})]
    assert any("cannot feed other subtasks" in msg for msg in messages)
    orphan = _template(
        id="t",
        attributes={"path": "file_path", "doc": "url"},
        description='Read "{doc}" into "{path}".',
        inputs=["doc"],
        evaluator_generator=lambda path, doc: m.file_exists(path),
        solution_generator=None,
        output_generator=lambda path, doc: path,
    )
    messages = [p.message for p in lint_pool({"t": orphan})]
    assert any("no template outputs 'url'" in msg for msg in messages)
    assert any("no solution_generator" in msg for msg in messages)


def test_import_errors_and_bad_references_are_one_line() -> None:
    for ref, message in (
        ("no.such.module:POOL", "importing no.such.module failed: ModuleNotFoundError"),
        ("reefbench.suites.demo:NOPE", "has no 'NOPE'"),
        ("reefbench.suites.demo", "use the form"),
        ("reefbench.suites.demo:FILE_TYPES", "entry 'laptop' is str, not SubTask"),
        ("missing.py:POOL", "no file missing.py"),
    ):
        (problem,) = lint_reference(ref)
        assert problem.severity == "error" and message in problem.message, (ref, problem)


def test_value_records_are_checked_and_count_as_pools() -> None:
    from reefbench.compose.lint import lint_pool
    from reefbench.envs import memory as m
    from reefbench.tasks.subtask import SubTask

    def card(rows: list[dict[str, object]]) -> SubTask:
        return SubTask(
            id="card",
            description="Call {name} at {number}.",
            attributes={"name": "name", "number": "phone_number"},
            outputs=["call"],
            env="laptop",
            intents=["calls"],
            value_records=rows,
            evaluator_generator=lambda name, number: m.file_exists(path=f"{name}-{number}"),
            solution_generator=lambda name, number: [],
        )

    assert lint_pool({"card": card([{"name": "Ana", "number": "555-01"}])}) == []
    found = lint_pool({"card": card([{"name": "Ana", "number": 5550101}])})
    assert [p.severity for p in found] == ["error"]
    assert "value record" in found[0].message and "must be phone_number" in found[0].message
