"""Tests of reefbench.episodes.metrics against hand-computed values (CRAB, OmniBench, VeriGUI).

A handy identity for the coherency tests: cut a sequence into maximal runs of one
application; every adjacent pair inside a run scores 1 and no pair across runs does, so
CS = (number of subtasks) - (number of runs). CS_max is therefore N minus the fewest runs
any topological order can use.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reefbench import SubtaskInfo, Task, TaskMetadata, evaluator
from reefbench.episodes.episode import EpisodeResult
from reefbench.episodes.metrics import (
    action_efficiency,
    bootstrap_ci,
    breakdown,
    coherency_score,
    cost_efficiency,
    cs_max,
    depth,
    execution_efficiency,
    logical_consistency,
    success_rate,
    success_rate_at_k,
    summarize,
    termination_shares,
    weighted_coverage,
)
from reefbench.episodes.protocol import Usage
from reefbench.errors import GraphError


# ---------------------------------------------------------------- helpers
@evaluator
def flag(name: str) -> bool:
    """A checkpoint that is never evaluated here: metrics only read the graph."""
    return False


def digraph(edges: Iterable[tuple[str, str]] = (), nodes: Iterable[str] = ()) -> nx.DiGraph[Any]:
    graph: nx.DiGraph[Any] = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return graph


def result(
    task_id: str = "t1",
    *,
    termination: str = "step_limit",
    cr: float = 0.0,
    completed: Sequence[str] = (),
    total: int = 3,
    steps: int = 0,
    actions: int = 0,
    prompt: int = 0,
    completion: int = 0,
    start_at: int = 0,
    regressed: Sequence[str] = (),
) -> EpisodeResult:
    """An EpisodeResult; ``success`` follows the termination reason, as in Episode.run."""
    return EpisodeResult(
        task_id=task_id,
        agent="test-agent",
        termination=termination,
        success=termination == "success",
        completion_ratio=cr,
        completed_nodes=list(completed),
        total_nodes=total,
        steps=steps,
        actions=actions,
        usage=Usage(prompt_tokens=prompt, completion_tokens=completion),
        start_at=start_at,
        regressed=list(regressed),
    )


def brute_force_cs_max(graph: nx.DiGraph[Any], apps: dict[Any, str]) -> int:
    return max(coherency_score(order, apps) for order in nx.all_topological_sorts(graph))


def chains(patterns: Sequence[str]) -> tuple[nx.DiGraph[Any], dict[str, str]]:
    """Independent chains; chain i follows ``patterns[i]`` (one letter = one app per node)."""
    graph: nx.DiGraph[Any] = nx.DiGraph()
    apps: dict[str, str] = {}
    for c, pattern in enumerate(patterns):
        names = [f"c{c}_{k}" for k in range(len(pattern))]
        graph.add_nodes_from(names)
        nx.add_path(graph, names)
        apps.update(zip(names, pattern, strict=True))
    return graph, apps


def chains_cs_max(patterns: Sequence[str]) -> int:
    """Independent oracle for chain DAGs: DP over (position in each chain, last app)."""

    @functools.cache
    def best(positions: tuple[int, ...], last: str) -> int:
        options = [
            (1 if pattern[p] == last else 0)
            + best((*positions[:i], p + 1, *positions[i + 1 :]), pattern[p])
            for i, (pattern, p) in enumerate(zip(patterns, positions, strict=True))
            if p < len(pattern)
        ]
        return max(options, default=0)

    return best(tuple(0 for _ in patterns), "")


# ---------------------------------------------------------------- depth
def test_depth_of_sources_is_one() -> None:
    # Two sources s, t and an isolated node i: no predecessors -> depth 1 each.
    graph = digraph([("s", "x"), ("t", "x")], nodes=["i"])
    assert depth(graph) == {"s": 1, "t": 1, "i": 1, "x": 2}


def test_depth_of_diamond() -> None:
    # a=1; b=c=1+d(a)=2; d=1+max(d(b), d(c))=3.
    graph = digraph([("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")])
    assert depth(graph) == {"a": 1, "b": 2, "c": 2, "d": 3}


def test_depth_uses_longest_path() -> None:
    # d is reached by a->d (length 1) and a->b->c->d (length 3): d = 1 + d(c) = 1 + 3 = 4,
    # not 1 + d(a) = 2.
    graph = digraph([("a", "d"), ("a", "b"), ("b", "c"), ("c", "d")])
    assert depth(graph)["d"] == 4


@pytest.mark.parametrize(
    "edges",
    [[("a", "b"), ("b", "c"), ("c", "a")], [("a", "a")]],
    ids=["three-cycle", "self-loop"],
)
def test_depth_rejects_cycles(edges: list[tuple[str, str]]) -> None:
    with pytest.raises(GraphError):
        depth(digraph(edges))


# ---------------------------------------------------------------- weighted coverage
CHAIN = digraph([("a", "b"), ("b", "c")])  # depths 1, 2, 3; sum 6


@pytest.mark.parametrize(
    ("completed", "expected"),
    [
        ([], 0.0),  # 0 / 6
        (["a"], 1 / 6),  # d(a) = 1
        (["a", "b"], 3 / 6),  # 1 + 2 = 3  (plain C/N would say 2/3)
        (["c"], 3 / 6),  # d(c) = 3: the deepest node weighs most
        (["a", "b", "c"], 1.0),  # 6 / 6
    ],
)
def test_weighted_coverage_on_a_chain(completed: list[str], expected: float) -> None:
    assert weighted_coverage(CHAIN, completed) == pytest.approx(expected)


def test_weighted_coverage_on_a_diamond() -> None:
    # depths a=1, b=2, c=2, d=3; sum 8. {a, b} -> (1 + 2) / 8 = 3/8.
    graph = digraph([("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")])
    assert weighted_coverage(graph, ["a", "b"]) == pytest.approx(3 / 8)
    # duplicates count once: {a, a, c} -> (1 + 2) / 8
    assert weighted_coverage(graph, ["a", "a", "c"]) == pytest.approx(3 / 8)


def test_weighted_coverage_rejects_unknown_nodes() -> None:
    with pytest.raises(GraphError, match="zzz"):
        weighted_coverage(CHAIN, ["a", "zzz"])


def test_weighted_coverage_rejects_cycles() -> None:
    with pytest.raises(GraphError):
        weighted_coverage(digraph([("a", "b"), ("b", "a")]), ["a"])


# ---------------------------------------------------------------- coherency, CS_max, LC
# a(X) -> b(Y) -> c(X), plus d(Y) and e(X) without edges.
# The chain a, b, c alternates X Y X, so any order has >= 3 runs: CS_max <= 5 - 3 = 2,
# reached by e a d b c = X X | Y Y | X -> (e,a) + (d,b) = 2.
# The lexicographic topological order a b c d e = X Y X Y X scores 0.
TRAP = digraph([("a", "b"), ("b", "c")], nodes=["d", "e"])
TRAP_APPS = {"a": "X", "b": "Y", "c": "X", "d": "Y", "e": "X"}


def test_coherency_score_counts_adjacent_same_app_pairs() -> None:
    apps = {"p": "X", "q": "X", "r": "Y", "s": "Y", "t": "X"}
    # X X Y Y X -> (p,q) and (r,s) -> 2; (q,r), (s,t) differ.
    assert coherency_score(["p", "q", "r", "s", "t"], apps) == 2
    # X Y X Y X -> 0
    assert coherency_score(["p", "r", "q", "s", "t"], apps) == 0
    assert coherency_score(["p"], apps) == 0
    assert coherency_score([], apps) == 0


def test_cs_max_is_not_the_lexicographic_order() -> None:
    lexicographic = list(nx.lexicographical_topological_sort(TRAP))
    assert lexicographic == ["a", "b", "c", "d", "e"]
    assert coherency_score(lexicographic, TRAP_APPS) == 0
    assert coherency_score(["e", "a", "d", "b", "c"], TRAP_APPS) == 2
    assert cs_max(TRAP, TRAP_APPS) == 2
    assert brute_force_cs_max(TRAP, TRAP_APPS) == 2


def test_cs_max_brief_example() -> None:
    # A1(X) -> B1(Y); A2(X) and B2(Y) free. Two apps, so >= 2 runs: CS_max <= 4 - 2 = 2,
    # reached by A1 A2 B1 B2 (X X Y Y). The interleaved order A1 B1 A2 B2 scores 0.
    graph = digraph([("A1", "B1")], nodes=["A2", "B2"])
    apps = {"A1": "X", "A2": "X", "B1": "Y", "B2": "Y"}
    assert coherency_score(["A1", "B1", "A2", "B2"], apps) == 0
    assert cs_max(graph, apps) == 2 == brute_force_cs_max(graph, apps)


def test_cs_max_with_free_nodes_around_a_chain() -> None:
    # x1(X) -> y1(Y) -> x2(X) -> y2(Y) plus free nodes f1(Y), f2(X), f3(X).
    # The chain alternates X Y X Y -> >= 4 runs -> CS_max <= 7 - 4 = 3, reached by
    # f2 f3 x1 | f1 y1 | x2 | y2 = X X X | Y Y | X | Y -> 2 + 1 = 3.
    # Several orders reach 3; the chain-first order x1 y1 x2 y2 f1 f2 f3 only scores 2.
    graph = digraph([("x1", "y1"), ("y1", "x2"), ("x2", "y2")], nodes=["f1", "f2", "f3"])
    apps = {"x1": "X", "y1": "Y", "x2": "X", "y2": "Y", "f1": "Y", "f2": "X", "f3": "X"}
    assert coherency_score(["f2", "f3", "x1", "f1", "y1", "x2", "y2"], apps) == 3
    assert coherency_score(["f2", "f3", "x1", "y1", "x2", "y2", "f1"], apps) == 3
    assert coherency_score(["x1", "f2", "f3", "y1", "x2", "y2", "f1"], apps) == 3
    assert coherency_score(["x1", "y1", "x2", "y2", "f1", "f2", "f3"], apps) == 2
    assert cs_max(graph, apps) == 3 == brute_force_cs_max(graph, apps)


def test_cs_max_of_trivial_graphs() -> None:
    assert cs_max(digraph(), {}) == 0
    assert cs_max(digraph(nodes=["a"]), {"a": "X"}) == 0
    # three free nodes of one app: X X X -> 2
    assert cs_max(digraph(nodes=["a", "b", "c"]), dict.fromkeys("abc", "X")) == 2


def test_cs_max_rejects_cycles_and_missing_apps() -> None:
    with pytest.raises(GraphError):
        cs_max(digraph([("a", "b"), ("b", "a")]), {"a": "X", "b": "X"})
    with pytest.raises(GraphError):
        cs_max(digraph([("a", "b")]), {"a": "X"})


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        (["e", "a", "d", "b", "c"], 1.0),  # X X Y Y X: CS 2 / 2
        (["a", "e", "b", "c", "d"], 0.5),  # X X Y X Y: CS 1 (a,e) / 2
        (["a", "b", "d", "c", "e"], 1.0),  # X Y Y X X: CS 2 (b,d), (c,e) / 2
        (["a", "b", "c", "d", "e"], 0.0),  # X Y X Y X: CS 0 / 2
    ],
)
def test_logical_consistency_of_agent_orders(order: list[str], expected: float) -> None:
    assert logical_consistency(TRAP, order, TRAP_APPS) == pytest.approx(expected)


def test_logical_consistency_is_one_when_no_order_can_be_coherent() -> None:
    # chain p(X) -> q(Y) -> r(Z): every app differs, CS_max = 0 -> LC = 1.0 by convention.
    graph = digraph([("p", "q"), ("q", "r")])
    apps = {"p": "X", "q": "Y", "r": "Z"}
    assert cs_max(graph, apps) == 0
    assert logical_consistency(graph, ["p", "q", "r"], apps) == 1.0


DagCase = tuple[nx.DiGraph, dict[int, str], list[int]]


@st.composite
def small_dags(draw: st.DrawFn) -> DagCase:
    """A DAG on 0..n-1 (edges i<j only), apps from "ABC", and one topological order."""
    n = draw(st.integers(min_value=1, max_value=8))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    graph: nx.DiGraph[Any] = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(p for p, keep in zip(pairs, chosen, strict=True) if keep)
    apps = {i: draw(st.sampled_from("ABC")) for i in range(n)}
    priority = draw(st.permutations(range(n)))
    order = list(nx.lexicographical_topological_sort(graph, key=lambda v: priority[v]))
    return graph, apps, order


@settings(max_examples=150, deadline=None)
@given(small_dags())
def test_cs_max_matches_brute_force(case: DagCase) -> None:
    graph, apps, order = case
    best = brute_force_cs_max(graph, apps)
    assert cs_max(graph, apps) == best
    lc = logical_consistency(graph, order, apps)
    assert 0.0 <= lc <= 1.0
    if best:
        assert lc == pytest.approx(coherency_score(order, apps) / best)


def test_cs_max_exact_on_20_nodes() -> None:
    # Four chains of 5: two alternate X Y X Y X, two alternate Y X Y X Y.
    # Runs alternate apps, and a chain's consecutive nodes differ, so each chain needs 5
    # runs in a row. With only 5 runs the first run must be X (for chains 0, 1) and Y (for
    # chains 2, 3): impossible. 6 runs X Y X Y X Y suffice (chains 0, 1 use runs 1-5,
    # chains 2, 3 use runs 2-6). CS_max = 20 - 6 = 14.
    patterns = ["XYXYX", "XYXYX", "YXYXY", "YXYXY"]
    graph, apps = chains(patterns)
    assert graph.number_of_nodes() == 20
    assert chains_cs_max(patterns) == 14
    assert cs_max(graph, apps) == 14
    # the lexicographic order (one chain after the other) only scores 1 (c0_4, c1_0 both X)
    # + 0 (c1_4 = X, c2_0 = Y) + 1 (c2_4, c3_0 both Y) = 2
    assert coherency_score(list(nx.lexicographical_topological_sort(graph)), apps) == 2


def test_cs_max_exact_on_24_nodes() -> None:
    # Four chains of 6: XXYYZZ, YYZZXX, ZZXXYY and XYZXYZ.
    # Chain 3 has six nodes with consecutive apps different -> >= 6 runs.
    # 6 runs X Y Z X Y Z contain XYZ (chain 0: runs 1-3), YZX (chain 1: runs 2-4),
    # ZXY (chain 2: runs 3-5) and XYZXYZ (chain 3). CS_max = 24 - 6 = 18.
    patterns = ["XXYYZZ", "YYZZXX", "ZZXXYY", "XYZXYZ"]
    graph, apps = chains(patterns)
    assert graph.number_of_nodes() == 24
    assert chains_cs_max(patterns) == 18
    assert cs_max(graph, apps) == 18


def test_cs_max_on_24_nodes_many_apps() -> None:
    # Six chains of 4 over six apps, chain i cycling A..F from offset i: the best order
    # is checked against the chain DP (no brute force: 24!/(4!^6) orders).
    apps_cycle = "ABCDEF"
    patterns = ["".join(apps_cycle[(i + k) % 6] for k in range(4)) for i in range(6)]
    graph, apps = chains(patterns)
    assert graph.number_of_nodes() == 24
    assert cs_max(graph, apps) == chains_cs_max(patterns)


# ---------------------------------------------------------------- per episode
def test_execution_efficiency_is_cr_over_actions() -> None:
    # CR 0.5 over A = 4 executed actions -> 0.125
    assert execution_efficiency(result(cr=0.5, actions=4)) == pytest.approx(0.125)


def test_execution_efficiency_without_actions_is_zero() -> None:
    # CR 0.5 reached with no action (e.g. an SR@k prefix) must not divide by zero
    assert execution_efficiency(result(cr=0.5, actions=0)) == 0.0


def test_cost_efficiency_uses_prompt_plus_completion_tokens() -> None:
    # T = 800 + 200 = 1000; CE = 0.5 / 1000 = 0.0005 (prompt only would give 0.000625)
    r = result(cr=0.5, prompt=800, completion=200)
    assert cost_efficiency(r) == pytest.approx(0.0005)


def test_cost_efficiency_without_tokens_is_none() -> None:
    assert cost_efficiency(result(cr=1.0, actions=3)) is None


# ---------------------------------------------------------------- aggregates
def test_success_rate() -> None:
    # 2 successes out of 5 -> 0.4
    results = [
        result(termination="success"),
        result(termination="step_limit"),
        result(termination="success"),
        result(termination="false_completion"),
        result(termination="env_error"),
    ]
    assert success_rate(results) == pytest.approx(0.4)


def test_action_efficiency_counts_successful_episodes_only() -> None:
    # successes took 4 and 8 steps -> (4 + 8) / 2 = 6; the failed 15-step episode is ignored
    # (including it would give 27 / 3 = 9)
    results = [
        result(termination="success", steps=4),
        result(termination="step_limit", steps=15),
        result(termination="success", steps=8),
    ]
    assert action_efficiency(results) == pytest.approx(6.0)


def test_action_efficiency_without_successes_is_none() -> None:
    results = [result(termination="step_limit", steps=15), result(termination="invalid_action")]
    assert action_efficiency(results) is None


def test_success_rate_at_k_groups_by_start_at() -> None:
    # k=0: success, fail -> 1/2; k=1: success, success, fail -> 2/3; k=2: fail -> 0
    results = [
        result(termination="success", start_at=0),
        result(termination="step_limit", start_at=1),
        result(termination="step_limit", start_at=0),
        result(termination="success", start_at=1),
        result(termination="step_limit", start_at=2),
        result(termination="success", start_at=1),
    ]
    sr_at_k = success_rate_at_k(results)
    assert list(sr_at_k) == [0, 1, 2]
    assert sr_at_k[0] == pytest.approx(1 / 2)
    assert sr_at_k[1] == pytest.approx(2 / 3)
    assert sr_at_k[2] == 0.0


def test_termination_shares_crab_style() -> None:
    # 1 success, 1 false completion, 2 step limits out of 4 -> 0.25 / 0.25 / 0.5
    results = [
        result(termination="step_limit"),
        result(termination="success"),
        result(termination="false_completion"),
        result(termination="step_limit"),
    ]
    shares = termination_shares(results)
    assert shares == pytest.approx({"success": 0.25, "false_completion": 0.25, "step_limit": 0.5})
    assert sum(shares.values()) == pytest.approx(1.0)


def test_termination_shares_include_infrastructure_outcomes() -> None:
    # shares are over all episodes: 1 success, 2 invalid actions, 1 env error out of 4
    results = [
        result(termination="success"),
        result(termination="invalid_action"),
        result(termination="env_error"),
        result(termination="invalid_action"),
    ]
    assert termination_shares(results) == pytest.approx(
        {"success": 0.25, "invalid_action": 0.5, "env_error": 0.25}
    )
    assert termination_shares([]) == {}


SAMPLE = [0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0]  # mean 6 / 10 = 0.6


# 40 distinct values: resampled means are fine-grained, so the interval depends on the seed
RICH = [(i * 37 % 101) / 7 for i in range(40)]


def test_bootstrap_ci_is_deterministic_for_a_seed() -> None:
    assert bootstrap_ci(RICH, seed=7) == bootstrap_ci(RICH, seed=7)
    assert bootstrap_ci(RICH) == bootstrap_ci(RICH, seed=0)
    # the seed is actually used: two seeds give two different intervals
    assert bootstrap_ci(RICH, seed=1) != bootstrap_ci(RICH, seed=2)


def test_bootstrap_ci_takes_percentiles_of_the_resampled_statistics() -> None:
    # A "statistic" that returns 0, 1, 2, ... on successive calls makes the 101 resampled
    # statistics exactly 0..100. The 95% interval cuts 2.5% from each end: the 2.5th
    # percentile of 0..100 lies in [2, 3] and the 97.5th in [97, 98] (by convention).
    counter = itertools.count()
    lo, hi = bootstrap_ci(SAMPLE, lambda _: float(next(counter)), resamples=101, level=0.95)
    assert 2 <= lo <= 3
    assert 97 <= hi <= 98


def test_bootstrap_ci_contains_the_mean() -> None:
    lo, hi = bootstrap_ci(SAMPLE)
    # resampled means of 0/1 values lie in [0, 1]; 0.6 is inside a proper interval
    assert 0.0 <= lo < 0.6 < hi <= 1.0


def test_bootstrap_ci_narrower_level_is_nested() -> None:
    # same seed -> same sorted resample statistics; a 50% interval lies inside the 95% one
    lo95, hi95 = bootstrap_ci(SAMPLE, level=0.95)
    lo50, hi50 = bootstrap_ci(SAMPLE, level=0.5)
    assert lo95 <= lo50 <= 0.6 <= hi50 <= hi95
    assert hi50 - lo50 < hi95 - lo95


def test_bootstrap_ci_of_degenerate_and_empty_samples() -> None:
    assert bootstrap_ci([0.7] * 5) == (0.7, 0.7)
    lo, hi = bootstrap_ci([])
    assert math.isnan(lo) and math.isnan(hi)


# ---------------------------------------------------------------- summarize / breakdown
def make_tasks() -> dict[str, Task]:
    # t1: chain a -> b -> c, depths 1, 2, 3 (sum 6)
    # t2: p -> r, q -> r, depths p=1, q=1, r=2 (sum 4)
    t1 = Task(
        id="t1",
        instruction="do it",
        nodes={"a": flag("a"), "b": flag("b"), "c": flag("c")},
        edges=[("a", "b"), ("b", "c")],
        metadata=TaskMetadata(level="L2", tags=["web", "office"]),
    )
    t2 = Task(
        id="t2",
        instruction="do that",
        nodes={"p": flag("p"), "q": flag("q"), "r": flag("r")},
        edges=[("p", "r"), ("q", "r")],
        metadata=TaskMetadata(level="L3", tags=["web"]),
    )
    return {"t1": t1, "t2": t2}


def four_results() -> list[EpisodeResult]:
    return [
        # r1: t1 solved; EE 1/6; T 1000 -> CE 1/1000; cr_w 6/6 = 1
        result(
            "t1",
            termination="success",
            cr=1.0,
            completed=["a", "b", "c"],
            steps=5,
            actions=6,
            prompt=900,
            completion=100,
        ),
        # r2: t1, a only; EE (1/3)/12 = 1/36; T 2000 -> CE 1/6000; cr_w 1/6
        result("t1", cr=1 / 3, completed=["a"], steps=15, actions=12, prompt=1500, completion=500),
        # r3: t2, p and q; EE (2/3)/8 = 1/12; T 4000 -> CE 1/6000; cr_w (1 + 1)/4 = 1/2
        result(
            "t2",
            termination="false_completion",
            cr=2 / 3,
            completed=["p", "q"],
            steps=7,
            actions=8,
            prompt=3000,
            completion=1000,
        ),
        # r4: t2, environment crashed; EE 0 (A = 0); CE None (T = 0); cr_w 0
        result("t2", termination="env_error", cr=0.0, steps=1),
    ]


def test_summarize_by_hand() -> None:
    summary = summarize(four_results(), make_tasks())
    assert summary.episodes == 4
    # SR = 1/4
    assert summary.sr == pytest.approx(0.25)
    # CR = (1 + 1/3 + 2/3 + 0) / 4 = 2 / 4 = 0.5
    assert summary.cr == pytest.approx(0.5)
    # EE = (1/6 + 1/36 + 1/12 + 0) / 4 = (6/36 + 1/36 + 3/36) / 4 = 10/144 = 5/72
    assert summary.ee == pytest.approx(5 / 72)
    # CE over episodes that reported tokens: (1/1000 + 1/6000 + 1/6000) / 3
    #    = (6/6000 + 1/6000 + 1/6000) / 3 = 8/18000 = 1/2250
    assert summary.ce == pytest.approx(1 / 2250)
    # CR_w = (1 + 1/6 + 1/2 + 0) / 4 = (10/6) / 4 = 5/12  (differs from CR = 1/2)
    assert summary.cr_w == pytest.approx(5 / 12)
    # AE: the only success took 5 steps
    assert summary.ae == pytest.approx(5.0)
    assert summary.lc is None  # no task has subtasks
    assert summary.terminations == pytest.approx(
        {"success": 0.25, "step_limit": 0.25, "false_completion": 0.25, "env_error": 0.25}
    )
    assert summary.infrastructure == 1
    assert summary.sr_ci == bootstrap_ci([1.0, 0.0, 0.0, 0.0])
    assert summary.cr_ci[0] <= 0.5 <= summary.cr_ci[1]


def test_summarize_does_not_credit_regressed_nodes() -> None:
    # t1: a and b completed, b regressed at the final check -> only a counts:
    # CR_w = d(a) / 6 = 1/6, not (1 + 2) / 6 = 1/2
    r = result("t1", cr=1 / 3, completed=["a", "b"], regressed=["b"], actions=3)
    assert r.credited_nodes == ["a"]
    assert summarize([r], make_tasks()).cr_w == pytest.approx(1 / 6)


def test_summarize_skips_unknown_tasks_for_graph_metrics() -> None:
    # without the task graph CR_w cannot be computed, but SR/CR still count the episode
    summary = summarize([result("nope", termination="success", cr=1.0)], make_tasks())
    assert summary.cr_w is None
    assert summary.sr == 1.0
    assert summary.cr == 1.0


def subtask_task() -> Task:
    # Subtasks (as compose_task builds them: subtask sinks -> next subtask's sources):
    #   s0 (app X, nodes n0a -> n0b) -> s1 (Y, n1) -> s2 (X, n2);  s3 (Y, n3), s4 (X, n4) free.
    # This is TRAP again: CS_max = 2.
    nodes = {k: flag(k) for k in ["n0a", "n0b", "n1", "n2", "n3", "n4"]}
    subtasks = [
        SubtaskInfo(id="s0", app="X", nodes=["n0a", "n0b"]),
        SubtaskInfo(id="s1", app="Y", nodes=["n1"]),
        SubtaskInfo(id="s2", app="X", nodes=["n2"]),
        SubtaskInfo(id="s3", app="Y", nodes=["n3"]),
        SubtaskInfo(id="s4", app="X", nodes=["n4"]),
    ]
    return Task(
        id="t3",
        instruction="several apps",
        nodes=nodes,
        edges=[("n0a", "n0b"), ("n0b", "n1"), ("n1", "n2")],
        metadata=TaskMetadata(
            level="L4", subtasks=subtasks, subtask_links=[("s0", "s1"), ("s1", "s2")]
        ),
    )


def test_summarize_logical_consistency_by_hand() -> None:
    # metrics.py: when not every subtask completed, CS_max is taken over the subtasks that
    # did (the DAG induced by them); with all of them this is the paper's definition.
    tasks = {"t3": subtask_task()}
    # Completion order n0a, n3, n0b, n4, n1, n2. A subtask finishes with its last node:
    # s3 @1, s0 @2 (n0b), s4 @3, s1 @4, s2 @5 -> s3 s0 s4 s1 s2 = Y X X Y X -> CS 1.
    # All five completed: CS_max = 2 (see TRAP) -> LC 1/2.
    # (Finishing s0 at its first node would give s0 s3 s4 s1 s2 = X Y X Y X -> LC 0.)
    half = result("t3", completed=["n0a", "n3", "n0b", "n4", "n1", "n2"], total=6)
    assert summarize([half], tasks).lc == pytest.approx(0.5)
    # n4, n0a, n0b, n1, n3 -> s4 @0, s0 @2, s1 @3, s3 @4 -> X X Y Y -> CS 2;
    # CS_max over {s0 -> s1, s3, s4}: 4 nodes, 2 apps -> >= 2 runs -> 2 -> LC 2/2 = 1
    full = result("t3", completed=["n4", "n0a", "n0b", "n1", "n3"], total=6)
    assert summarize([full], tasks).lc == pytest.approx(1.0)
    # only n0a: no subtask finished -> no order, the episode is left out of LC
    none = result("t3", completed=["n0a"], total=6)
    assert summarize([none], tasks).lc is None
    # mean over the episodes that have an order: (1/2 + 1) / 2 = 3/4
    assert summarize([half, full, none], tasks).lc == pytest.approx(0.75)


def test_summarize_logical_consistency_over_the_completed_subtasks() -> None:
    # n0a, n0b, n4, n1, n2 -> s0 @1, s4 @2, s1 @3, s2 @4 -> X X Y X -> CS 1.
    # Completed {s0 -> s1 -> s2, s4}: s1 (Y) sits between s0 and s2 -> >= 3 runs ->
    # CS_max = 4 - 3 = 1 -> LC 1/1 = 1. (The full DAG's CS_max 2 would give 1/2.)
    r = result("t3", completed=["n0a", "n0b", "n4", "n1", "n2"], total=6)
    assert summarize([r], {"t3": subtask_task()}).lc == pytest.approx(1.0)


def test_summarize_logical_consistency_ignores_regressed_subtasks() -> None:
    # n0a, n0b, n1, n3, n4, n2 with n2 regressed at the final check: s2 is not credited.
    # Credited order s0 @1, s1 @2, s3 @3, s4 @4 = X Y Y X -> CS 1;
    # CS_max over {s0 -> s1, s3, s4} = 2 (s4 s0 | s1 s3) -> LC 1/2.
    # (Crediting s2: s0 s1 s3 s4 s2 = X Y Y X X -> CS 2, CS_max 2 -> LC 1.)
    r = result("t3", completed=["n0a", "n0b", "n1", "n3", "n4", "n2"], regressed=["n2"], total=6)
    assert summarize([r], {"t3": subtask_task()}).lc == pytest.approx(0.5)


def test_summarize_logical_consistency_stays_within_one_after_a_regression() -> None:
    # Subtasks s0 (X, m0) -> s1 (Y, m1) -> s2 (X, m2), s3 (X, m3) free.
    # The Y subtask sits between s0 and s2, so X needs >= 2 runs: CS_max = 4 - 3 = 1.
    # The agent completes m0, m1, m2, m3, but persistent m1 regresses: s1 is not credited,
    # the order becomes s0 s2 s3 = X X X with CS 2. LC is CS_agent / CS_max, "the maximum
    # possible", so it must not exceed 1 (2 / 1 = 2.0 would rank this agent above a perfect one).
    nodes = {k: flag(k) for k in ["m0", "m1", "m2", "m3"]}
    task = Task(
        id="t4",
        instruction="regress",
        nodes=nodes,
        edges=[("m0", "m1"), ("m1", "m2")],
        metadata=TaskMetadata(
            subtasks=[
                SubtaskInfo(id="s0", app="X", nodes=["m0"]),
                SubtaskInfo(id="s1", app="Y", nodes=["m1"]),
                SubtaskInfo(id="s2", app="X", nodes=["m2"]),
                SubtaskInfo(id="s3", app="X", nodes=["m3"]),
            ],
            subtask_links=[("s0", "s1"), ("s1", "s2")],
        ),
    )
    r = result("t4", completed=["m0", "m1", "m2", "m3"], regressed=["m1"], total=4)
    lc = summarize([r], {"t4": task}).lc
    assert lc is not None
    assert 0.0 <= lc <= 1.0


def test_breakdown_by_level() -> None:
    groups = breakdown(four_results(), make_tasks(), "level")
    assert list(groups) == ["L2", "L3"]
    l2, l3 = groups["L2"], groups["L3"]
    # L2 = r1, r2: SR 1/2, CR (1 + 1/3) / 2 = 2/3, CR_w (1 + 1/6) / 2 = 7/12
    assert l2.episodes == 2
    assert l2.sr == pytest.approx(0.5)
    assert l2.cr == pytest.approx(2 / 3)
    assert l2.cr_w == pytest.approx(7 / 12)
    assert l2.infrastructure == 0
    # L3 = r3, r4: SR 0, CR (2/3 + 0) / 2 = 1/3, one env error, no success -> AE None
    assert l3.episodes == 2
    assert l3.sr == 0.0
    assert l3.cr == pytest.approx(1 / 3)
    assert l3.infrastructure == 1
    assert l3.ae is None


def test_breakdown_by_list_field_and_callable() -> None:
    # tags: t1 = web, office; t2 = web -> an episode counts once in each of its groups
    by_tag = breakdown(four_results(), make_tasks(), "tags")
    assert list(by_tag) == ["office", "web"]
    assert by_tag["web"].episodes == 4
    assert by_tag["office"].episodes == 2
    # callable key: number of nodes (3 for both tasks) -> a single group "3"
    by_size = breakdown(four_results(), make_tasks(), lambda task: len(task.nodes))
    assert list(by_size) == ["3"]
    assert by_size["3"].episodes == 4


@pytest.mark.parametrize(
    ("sr", "cr", "level"),
    [
        (0.5, 0.9, 1),  # any success -> level 1
        (0.01, 0.0, 1),
        (0.0, 0.21, 2),  # CR above 20 %
        (0.0, 0.20, 3),  # boundaries fall into the harder level
        (0.0, 0.06, 3),
        (0.0, 0.05, 4),
        (0.0, 0.001, 4),
        (0.0, 0.0, 5),  # nobody made progress
    ],
)
def test_verigui_difficulty_levels(sr: float, cr: float, level: int) -> None:
    from reefbench.episodes.metrics import difficulty_level

    assert difficulty_level(sr, cr) == level
