"""The graph evaluator: states, incremental checks, cascades, errors, final check."""

from __future__ import annotations

import itertools
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reefbench import EvalResult, GraphError, GraphEvaluator, evaluator

CALLS: list[str] = []


@evaluator(moment=True)
def flag(name: str, env: Any) -> bool:
    """True while the world's flag is set (a moment: not re-checked at the end)."""
    CALLS.append(name)
    return bool(env.get(name, False))


@evaluator
def kept(name: str, env: Any) -> bool:
    """A state flag (re-checked at the end)."""
    return bool(env.get(name, False))


@evaluator
def explodes(env: Any) -> bool:
    """Always raises."""
    raise RuntimeError("disk on fire")


def chain(*names: str) -> GraphEvaluator:
    nodes = {n: flag(n) for n in names}
    return GraphEvaluator(nodes, list(itertools.pairwise(names)))


def test_initial_states() -> None:
    g = GraphEvaluator({"a": flag("a"), "b": flag("b"), "c": flag("c")}, [("a", "c"), ("b", "c")])
    assert g.states() == {"a": "active", "b": "active", "c": "waiting"}
    assert g.completion_ratio == 0.0 and not g.is_complete


def test_only_active_nodes_are_checked() -> None:
    g = chain("a", "b", "c")
    CALLS.clear()
    g.step({"w": {}})
    assert CALLS == ["a"]


def test_completion_cascades_within_one_step() -> None:
    g = chain("a", "b", "c")
    report = g.step({"w": {"a": True, "b": True}})
    assert report.completed == ["a", "b"]
    assert g.states() == {"a": "completed", "b": "completed", "c": "active"}
    assert g.completed_at == {"a": 1, "b": 1}
    g.step({"w": {"a": True, "b": True, "c": True}})
    assert g.is_complete and g.completion_ratio == 1.0
    assert g.completed_order == ["a", "b", "c"] and g.completed_at["c"] == 2


def test_join_waits_for_all_predecessors() -> None:
    g = GraphEvaluator({"a": flag("a"), "b": flag("b"), "j": flag("j")}, [("a", "j"), ("b", "j")])
    g.step({"w": {"a": True, "j": True}})
    assert g.state("j") == "waiting"
    g.step({"w": {"a": True, "b": True, "j": True}})
    assert g.state("j") == "completed"


def test_completed_nodes_are_not_rechecked() -> None:
    g = chain("a", "b")
    g.step({"w": {"a": True}})
    CALLS.clear()
    g.step({"w": {}})
    assert CALLS == ["b"] and g.state("a") == "completed"


def test_evaluator_errors_are_recorded_not_raised() -> None:
    g = GraphEvaluator({"boom": explodes(), "a": flag("a")})
    report = g.step({"w": {"a": True}})
    assert [c.node for c in report.errors] == ["boom"]
    assert "RuntimeError: disk on fire" in (report.errors[0].error or "")
    assert g.state("boom") == "active" and g.state("a") == "completed"


def test_final_check_reports_regressed_persistent_nodes() -> None:
    g = GraphEvaluator({"p": kept("p"), "t": flag("t")})
    g.step({"w": {"p": True, "t": True}})
    assert g.is_complete
    assert g.final_check({"w": {"t": False, "p": False}}) == ["p"]
    assert g.regressed == ["p"] and not g.is_complete and g.completion_ratio == 0.5
    assert g.final_check({"w": {}}) == [], "a regression is reported once"


def test_final_check_keeps_holding_persistent_nodes() -> None:
    g = GraphEvaluator({"p": kept("p")})
    g.step({"w": {"p": True}})
    assert g.final_check({"w": {"p": True}}) == [] and g.is_complete


def test_step_report_carries_messages_and_progress() -> None:
    @evaluator
    def half() -> EvalResult:
        """Half done."""
        return EvalResult(success=False, message="half way", progress=0.5)

    check = GraphEvaluator({"h": half()}).step({}).checks[0]
    assert (check.node, check.success, check.message, check.progress) == (
        "h",
        False,
        "half way",
        0.5,
    )


def test_cycles_are_rejected_naming_the_cycle() -> None:
    with pytest.raises(GraphError, match="cycle: a -> b -> a"):
        GraphEvaluator({"a": flag("a"), "b": flag("b")}, [("a", "b"), ("b", "a")])


def test_empty_graph_and_unknown_nodes_are_rejected() -> None:
    with pytest.raises(GraphError, match="empty"):
        GraphEvaluator({})
    with pytest.raises(GraphError, match="unknown node 'z'"):
        GraphEvaluator({"a": flag("a")}, [("a", "z")])
    with pytest.raises(GraphError, match="not an Evaluator"):
        GraphEvaluator({"a": "nope"})  # type: ignore[dict-item]


def test_networkx_graph_of_evaluator_objects() -> None:
    first, second = flag("x"), flag("y")
    dag: nx.DiGraph[Any] = nx.DiGraph()
    dag.add_edge(first, second)
    g = GraphEvaluator(dag)
    assert g.ids == ["flag(name='x')", "flag(name='y')"]
    g.step({"w": {"x": True}})
    assert g.state(first) == "completed" and g.state(second) == "active"


def test_networkx_graph_with_evaluator_attributes_and_duplicate_labels() -> None:
    dag: nx.DiGraph[Any] = nx.DiGraph()
    dag.add_node("one", evaluator=flag("same"))
    dag.add_node("two", evaluator=flag("same"))
    assert GraphEvaluator(dag).ids == ["one", "two"]
    twins: nx.DiGraph[Any] = nx.DiGraph()
    twins.add_nodes_from([flag("same"), flag("same")])
    assert GraphEvaluator(twins).ids == ["flag(name='same')", "flag(name='same')#2"]
    bad: nx.DiGraph[Any] = nx.DiGraph()
    bad.add_node("plain")
    with pytest.raises(GraphError, match="neither an Evaluator"):
        GraphEvaluator(bad)


def test_reset_forgets_progress() -> None:
    g = chain("a", "b")
    g.step({"w": {"a": True, "b": True}})
    g.reset()
    assert g.states() == {"a": "active", "b": "waiting"} and g.completed_order == []


# ------------------------------------------------------------------ properties
@st.composite
def dag_and_worlds(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]], list[set[int]]]:
    n = draw(st.integers(1, 10))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    worlds = draw(st.lists(st.sets(st.integers(0, n - 1)), min_size=1, max_size=8))
    return n, edges, worlds


@settings(max_examples=200, deadline=None)
@given(dag_and_worlds())
def test_invariants(case: tuple[int, list[tuple[int, int]], list[set[int]]]) -> None:
    n, edges, worlds = case
    names = [f"n{i}" for i in range(n)]
    g = GraphEvaluator(
        {name: flag(name) for name in names}, [(names[i], names[j]) for i, j in edges]
    )
    done: list[str] = []
    for world in worlds:
        env = {"w": {names[i]: True for i in world}}
        g.step(env)
        order = g.completed_order
        # Completions never decrease: the old order is a prefix of the new one.
        assert order[: len(done)] == done
        done = order
        # The order is a linear extension of the DAG.
        position = {node: k for k, node in enumerate(order)}
        for i, j in edges:
            if names[j] in position:
                assert names[i] in position and position[names[i]] < position[names[j]]
        # States agree with the definition.
        for k, name in enumerate(names):
            preds_done = all(names[i] in position for i, j in edges if j == k)
            expected = "completed" if name in position else ("active" if preds_done else "waiting")
            assert g.state(name) == expected
        # CR == 1 iff complete.
        assert (g.completion_ratio == 1.0) == g.is_complete
        # Stepping again without a state change changes nothing.
        before = (g.states(), g.completed_order)
        assert g.step(env).completed == []
        assert (g.states(), g.completed_order) == before


# ------------------------------------------------------------------ end state
def _slot_keys(slot: str, **_: Any) -> list[str]:
    return [f"slot:{slot}"]


@evaluator(governs=_slot_keys)
def slot_is(slot: str, value: str, env: Any) -> EvalResult:
    """A state checkpoint: the world's slot holds the value."""
    current = env.get(slot)
    return EvalResult(success=current == value, message=f"{slot} is {current!r}")


def test_a_state_set_and_then_set_back_regresses_at_the_end() -> None:
    g = GraphEvaluator({"theme": slot_is("theme", "dark"), "seen": flag("seen")})
    g.step({"w": {"theme": "dark", "seen": True}})
    assert g.is_complete
    assert g.final_check({"w": {"theme": "light", "seen": False}}) == ["theme"]
    assert not g.is_complete and g.completion_ratio == 0.5
    verdicts = {c.node: (c.verdict, c.message) for c in g.end_checks}
    assert verdicts == {"theme": ("regressed", "theme is 'light'"), "seen": ("moment", "")}


def test_a_completed_descendant_on_the_same_state_supersedes_its_ancestor() -> None:
    g = GraphEvaluator(
        {"first": slot_is("theme", "dark"), "then": slot_is("theme", "contrast")},
        [("first", "then")],
    )
    assert g.supersession("first") == [("then", "slot theme")]
    assert g.supersession("then") == []
    g.step({"w": {"theme": "dark"}})
    g.step({"w": {"theme": "contrast"}})
    assert g.final_check({"w": {"theme": "contrast"}}) == [] and g.is_complete
    first = g.end_checks[0]
    assert first.verdict == "superseded" and "by then" in first.message
    assert g.end_checks[1].verdict == "held"


def test_an_uncompleted_descendant_supersedes_nothing() -> None:
    g = GraphEvaluator(
        {"first": slot_is("theme", "dark"), "then": slot_is("theme", "contrast")},
        [("first", "then")],
    )
    g.step({"w": {"theme": "dark"}})
    assert g.final_check({"w": {"theme": "light"}}) == ["first"]


def test_independent_nodes_on_the_same_state_are_both_checked() -> None:
    g = GraphEvaluator({"a": slot_is("theme", "dark"), "b": slot_is("theme", "contrast")})
    assert g.supersession("a") == [] and g.supersession("b") == []
    g.step({"w": {"theme": "dark"}})
    g.step({"w": {"theme": "contrast"}})
    assert g.is_complete, "both were true at some moment"
    assert g.final_check({"w": {"theme": "contrast"}}) == ["a"]
    assert not g.is_complete


def test_a_descendant_on_other_state_supersedes_nothing() -> None:
    g = GraphEvaluator({"a": slot_is("theme", "dark"), "b": slot_is("font", "big")}, [("a", "b")])
    g.step({"w": {"theme": "dark", "font": "big"}})
    assert g.final_check({"w": {"theme": "light", "font": "big"}}) == ["a"]


def test_an_evaluator_raising_at_the_end_is_a_regression_with_its_error() -> None:
    g = GraphEvaluator({"a": slot_is("theme", "dark")})
    g.step({"w": {"theme": "dark"}})
    assert g.final_check({"w": 5}) == ["a"]
    assert (g.end_checks[0].error or "").startswith("AttributeError")


def _copy_end(source: str, target: str, env: Any) -> Any:
    return slot_is(target, env.get(source))


def _target_keys(target: str, **_: Any) -> list[str]:
    return [f"slot:{target}"]


@evaluator(governs=_target_keys, end_state=_copy_end)
def copied(source: str, target: str, env: Any) -> bool:
    """The target slot holds what the source slot holds."""
    return env.get(target) is not None and env.get(target) == env.get(source)


def test_an_end_state_fixed_at_completion_ignores_a_later_change_of_the_source() -> None:
    g = GraphEvaluator({"copy": copied("list", "backup").on("w")})
    g.step({"w": {"list": "eggs", "backup": "eggs"}})
    assert g.final_check({"w": {"list": "eggs, bread", "backup": "eggs"}}) == []
    g.reset()
    g.step({"w": {"list": "eggs", "backup": "eggs"}})
    assert g.final_check({"w": {"list": "eggs", "backup": "spam"}}) == ["copy"]
    assert "'spam'" in g.end_checks[0].message


# ------------------------------------------------- end state per state key (issue 30)
class World(dict[str, Any]):
    """A world of slots that can say what each slot key holds, as environments do
    (:meth:`reefbench.environments.contract.Environment.state_fingerprint`)."""

    def state_fingerprint(self, keys: list[str]) -> dict[str, str]:
        return {k: repr(self.get(k.removeprefix("slot:"), "absent")) for k in keys}


def world(**slots: str) -> dict[str, World]:
    return {"w": World(slots)}


def _pair_keys(first: str, second: str, **_: Any) -> list[str]:
    return [f"slot:{first}", f"slot:{second}"]


@evaluator(governs=_pair_keys)
def same(first: str, second: str, env: Any) -> EvalResult:
    """A relation between two slots: both hold the same value (``cmp a b``)."""
    ok = first in env and env.get(first) == env.get(second)
    return EvalResult(success=ok, message=f"{env.get(first)!r} vs {env.get(second)!r}")


def pebble() -> GraphEvaluator:
    """Issue 30's shape: a file made, copied (a relation on both), the copy changed."""
    nodes = {
        "made": slot_is("pebble", "code"),
        "copied": same("pebble", "backup"),
        "appended": slot_is("backup", "code+line"),
    }
    return GraphEvaluator(nodes, [("made", "copied"), ("copied", "appended")])


def test_a_key_no_later_step_governs_must_hold_what_it_held_when_its_node_completed() -> None:
    g = pebble()
    g.step(world(pebble="code"))
    g.step(world(pebble="code", backup="code"))
    g.step(world(pebble="code", backup="code+line"))
    assert g.is_complete
    assert g.recorded("copied") == {"slot:pebble": "'code'", "slot:backup": "'code'"}
    assert g.responsible_keys()["copied"] == {"slot:pebble"}
    # The original deleted before the end: only the relation's node still answers for it.
    assert g.final_check(world(backup="code+line")) == ["copied"]
    assert not g.is_complete
    end = {c.node: c for c in g.end_checks}
    assert end["made"].verdict == "superseded"
    assert end["copied"].verdict == "regressed"
    assert "slot pebble is 'absent' at the end but was 'code'" in end["copied"].message


def test_a_relation_is_not_rerun_once_a_later_step_changed_one_side() -> None:
    g = pebble()
    g.step(world(pebble="code"))
    g.step(world(pebble="code", backup="code"))
    g.step(world(pebble="code", backup="code+line"))
    assert g.final_check(world(pebble="code", backup="code+line")) == []
    assert g.is_complete
    copied = g.end_checks[1]
    assert copied.verdict == "held"
    assert "superseded by appended" in copied.message
    assert "slot pebble unchanged" in copied.message


def test_a_partly_superseded_node_holds_its_other_key_to_its_content_not_only_existence() -> None:
    g = pebble()
    g.step(world(pebble="code"))
    g.step(world(pebble="code", backup="code"))
    g.step(world(pebble="code", backup="code+line"))
    assert g.final_check(world(pebble="other", backup="code+line")) == ["copied"]


def test_without_a_completed_superseder_the_node_is_rechecked_as_before() -> None:
    g = pebble()
    g.step(world(pebble="code"))
    g.step(world(pebble="code", backup="code"))
    assert g.final_check(world(pebble="code", backup="code")) == []
    assert [c.verdict for c in g.end_checks] == ["superseded", "held"]


def test_keys_no_environment_can_fingerprint_leave_the_node_superseded() -> None:
    g = pebble()  # a plain dict says nothing about its keys
    g.step({"w": {"pebble": "code"}})
    g.step({"w": {"pebble": "code", "backup": "code"}})
    g.step({"w": {"pebble": "code", "backup": "code+line"}})
    assert g.recorded("copied") == {}
    assert g.final_check({"w": {"backup": "code+line"}}) == []
    assert g.end_checks[1].verdict == "superseded"


def test_a_fork_keeps_what_was_recorded() -> None:
    g = pebble()
    g.step(world(pebble="code"))
    g.step(world(pebble="code", backup="code"))
    twin = g.fork()
    twin.step(world(pebble="code", backup="code+line"))
    assert twin.final_check(world(backup="code+line")) == ["copied"]
    assert g.recorded("copied") == twin.recorded("copied")
