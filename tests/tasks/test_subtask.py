"""Subtask templates: placeholder and type checks, instantiation, routing."""

from __future__ import annotations

import networkx as nx
import pytest

from reefbench import ConfigError, SubTask, register_attribute_type
from reefbench.envs import memory as m


def template(**overrides: object) -> SubTask:
    fields: dict[str, object] = {
        "id": "note",
        "description": 'Write "{content}" to "{path}".',
        "attributes": {"path": "file_path", "content": "text"},
        "output_type": "file_path",
        "env": "laptop",
        "evaluator_generator": lambda path, content: [
            m.file_exists(path),
            m.file_contains(path, content),
        ],
    }
    fields.update(overrides)
    return SubTask(**fields)  # type: ignore[arg-type]


def test_placeholder_without_attribute_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"placeholder \{title\} .* has no attribute"):
        template(description="Write {title} to {path}")


def test_unknown_attribute_type_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown type 'colour'"):
        template(attributes={"path": "file_path", "content": "colour"})


def test_register_attribute_type() -> None:
    register_attribute_type("city_name", str)
    assert template(attributes={"path": "file_path", "content": "city_name"}).id == "note"
    with pytest.raises(ConfigError, match="already str"):
        register_attribute_type("city_name", int)


def test_values_are_checked() -> None:
    t = template()
    with pytest.raises(ConfigError, match="missing attribute"):
        t.instantiate({"path": "a"})
    with pytest.raises(ConfigError, match="unknown attribute"):
        t.instantiate({"path": "a", "content": "b", "extra": 1})
    with pytest.raises(ConfigError, match="'content' must be text"):
        t.instantiate({"path": "a", "content": 1})


def test_numeric_and_bool_types() -> None:
    t = template(
        description="{n} {x} {b}",
        attributes={"n": "int", "x": "float", "b": "bool"},
        evaluator_generator=lambda n, x, b: m.file_exists("f"),
    )
    assert t.instantiate({"n": 1, "x": 2, "b": True}).instruction == "1 2 True"
    with pytest.raises(ConfigError, match="'n' must be int"):
        t.instantiate({"n": True, "x": 1.0, "b": True})


def test_instantiate_builds_a_routed_chain() -> None:
    fragment = template().instantiate({"path": "a.txt", "content": "hi"})
    assert fragment.instruction == 'Write "hi" to "a.txt".'
    assert list(fragment.nodes) == [
        "file_exists(path='a.txt')",
        "file_contains(path='a.txt', text='hi')",
    ]
    assert fragment.edges == [
        ("file_exists(path='a.txt')", "file_contains(path='a.txt', text='hi')")
    ]
    assert all(ev.env_name == "laptop" for ev in fragment.nodes.values())


def test_generators_may_return_a_single_evaluator_or_a_graph() -> None:
    single = template(evaluator_generator=lambda path, content: m.file_exists(path))
    assert len(single.instantiate({"path": "a", "content": "b"}).nodes) == 1

    def diamond(path: str, content: str) -> nx.DiGraph:  # type: ignore[type-arg]
        top, left, right = m.file_exists(path), m.file_contains(path, content), m.copy_text
        graph: nx.DiGraph = nx.DiGraph()  # type: ignore[type-arg]
        bottom = m.clipboard_equals(content)
        graph.add_edges_from([(top, left), (top, bottom), (left, bottom)])
        del right
        return graph

    fragment = template(evaluator_generator=diamond).instantiate({"path": "a", "content": "b"})
    assert len(fragment.nodes) == 3 and len(fragment.edges) == 3


def test_value_records_must_name_the_same_attributes_of_the_subtask() -> None:
    rows = [{"path": "a.txt", "content": "x"}, {"path": "b.txt", "content": "y"}]
    assert template(value_records=rows).value_records == rows
    with pytest.raises(ValueError, match="value records must all name the same attributes"):
        template(value_records=[{"path": "a.txt"}, {"path": "b.txt", "content": "y"}])
    with pytest.raises(ValueError, match="value records must all name the same attributes"):
        template(value_records=[{"colour": "red"}])
