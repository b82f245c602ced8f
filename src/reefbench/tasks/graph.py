"""The graph evaluator: a DAG of checkpoints checked after every agent action (CRAB §3.3).

A node is *waiting* until all its predecessors are completed, then *active*. After each
action :meth:`GraphEvaluator.step` checks only the active nodes; a node that passes is
*completed*, which may activate its successors, which are checked in the same step, until
nothing changes. networkx is used once, to validate and index the graph; the per-step loop
works on integer indices and touches only active nodes, so its cost does not grow with the
size of the graph.

When the episode ends, :meth:`GraphEvaluator.final_check` re-checks every completed *state*
checkpoint (see :mod:`reefbench.actions.evaluators`): success needs the final state, not a state
that held once. The end check works per state key, not per node: a key that a completed
descendant governs (the task itself asked for a later change of that state, a rename
after a write) is that descendant's to check; every other key stays the node's. A node
none of whose keys a completed descendant governs is re-checked; one all of whose keys
are governed later is *superseded*; one in between (``cmp a b`` after which the task
appends to ``b``) cannot be re-checked, since its relation no longer holds by design, so
each of its other keys (``a``) must hold at the end exactly what it held when the node
completed (the environment's :meth:`~reefbench.environments.contract.Environment.state_fingerprint`,
recorded then). Moments (what the screen showed) are never re-checked.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any, Literal

import networkx as nx

from reefbench.actions.evaluators import Evaluator, keys_overlap
from reefbench.errors import GraphError

NodeState = Literal["waiting", "active", "completed"]
_WAITING, _ACTIVE, _COMPLETED = 0, 1, 2
_STATE_NAMES: tuple[NodeState, ...] = ("waiting", "active", "completed")


@dataclass(slots=True)
class NodeCheck:
    """One evaluator run on one node."""

    node: str
    success: bool
    message: str = ""
    progress: float | None = None
    error: str | None = None  # the evaluator raised: an evaluator fault, not the agent's


EndVerdict = Literal["held", "regressed", "superseded", "moment"]


@dataclass(slots=True)
class EndCheck:
    """What the final check made of one completed node.

    ``held``/``regressed``: its state was checked again (``message`` says what was found),
    or, when completed descendants govern some of its keys, its other keys were compared
    with what they held when it completed;
    ``superseded``: completed descendants govern all of its state (``message`` says which);
    ``moment``: an observation, credited when it passed.
    """

    node: str
    verdict: EndVerdict
    message: str = ""
    error: str | None = None


@dataclass(slots=True)
class StepReport:
    """What one :meth:`GraphEvaluator.step` did: the checks run and the nodes completed."""

    step: int
    checks: list[NodeCheck]
    completed: list[str]

    @property
    def errors(self) -> list[NodeCheck]:
        return [c for c in self.checks if c.error is not None]


class GraphEvaluator:
    """Checks a DAG of evaluators incrementally.

    Build it from a ``networkx.DiGraph`` whose nodes are :class:`Evaluator` objects (ids
    are their labels), or whose nodes carry an ``evaluator`` attribute (ids are the node
    keys), or from a mapping ``id -> Evaluator`` plus ``edges``.
    """

    def __init__(
        self,
        graph: nx.DiGraph[Any] | Mapping[str, Evaluator],
        edges: Iterable[tuple[str, str]] = (),
    ) -> None:
        keys, evaluators, dag = _normalise(graph, edges)
        if not evaluators:
            raise GraphError("the evaluator graph is empty: a task needs at least one checkpoint")
        if not nx.is_directed_acyclic_graph(dag):
            cycle = nx.find_cycle(dag)
            path = " -> ".join(str(keys[u]) for u, _ in cycle) + f" -> {keys[cycle[0][0]]}"
            raise GraphError(f"the evaluator graph has a cycle: {path}")
        self.ids: list[str] = keys
        self._index = {k: i for i, k in enumerate(keys)}
        self._evaluators = evaluators
        self._successors = [tuple(dag.successors(i)) for i in range(len(keys))]
        self._in_degree = [dag.in_degree(i) for i in range(len(keys))]
        self._objects: dict[Hashable, int] = {}
        if isinstance(graph, nx.DiGraph):
            self._objects = {node: i for i, node in enumerate(graph.nodes)}
        self.dag = nx.relabel_nodes(dag, dict(enumerate(keys)))
        self._end_checks = [ev.end_check() for ev in evaluators]
        self._keys, self._superseders = _superseders(keys, evaluators, dag)
        self.reset()

    # ------------------------------------------------------------------ state
    def reset(self) -> None:
        """Forget all progress: sources active, everything else waiting."""
        self._pending = list(self._in_degree)
        self._state = [_ACTIVE if d == 0 else _WAITING for d in self._pending]
        self._active: dict[int, None] = {i: None for i, d in enumerate(self._pending) if d == 0}
        self._completed_order: list[int] = []
        self._completed_at: dict[int, int] = {}
        self._regressed: list[int] = []
        self._end: list[EndCheck] = []
        self._fixed_end: dict[int, Evaluator | None] = {}
        self._recorded: dict[int, dict[str, str]] = {}
        self._step = 0

    def fork(self) -> GraphEvaluator:
        """A copy with the same progress that goes on independently: checking it does not
        move this one. Lets an episode ask "what if the agent stopped here?" (the gates'
        truncated-reference check) and then carry on. The evaluators are shared: they are
        stateless reads of the environments."""
        twin = copy.copy(self)
        twin._pending = list(self._pending)
        twin._state = list(self._state)
        twin._active = dict(self._active)
        twin._completed_order = list(self._completed_order)
        twin._completed_at = dict(self._completed_at)
        twin._regressed = list(self._regressed)
        twin._end = list(self._end)
        twin._fixed_end = dict(self._fixed_end)
        twin._recorded = dict(self._recorded)
        return twin

    def state(self, node: Hashable) -> NodeState:
        """``"waiting"``, ``"active"`` or ``"completed"`` for a node (id or evaluator)."""
        return _STATE_NAMES[self._state[self._lookup(node)]]

    def states(self) -> dict[str, NodeState]:
        return {k: _STATE_NAMES[s] for k, s in zip(self.ids, self._state, strict=True)}

    def evaluator(self, node: Hashable) -> Evaluator:
        return self._evaluators[self._lookup(node)]

    @property
    def completed_order(self) -> list[str]:
        """Completed node ids in the order they completed (a linear extension of the DAG)."""
        return [self.ids[i] for i in self._completed_order]

    @property
    def completed_at(self) -> dict[str, int]:
        """For each completed node, the step (1-based) at which it completed."""
        return {self.ids[i]: s for i, s in self._completed_at.items()}

    @property
    def regressed(self) -> list[str]:
        """Completed state nodes that no longer held at the final check."""
        return [self.ids[i] for i in self._regressed]

    @property
    def end_checks(self) -> list[EndCheck]:
        """The final check's verdict on each completed node, in completion order."""
        return list(self._end)

    def supersession(self, node: Hashable) -> list[tuple[str, str]]:
        """The descendants that may replace a node's state at the end, with the key they
        share with it: ``[(descendant id, key), ...]`` (empty: it is always re-checked)."""
        return [(self.ids[j], key) for j, key in self._superseders[self._lookup(node)]]

    def recorded(self, node: Hashable) -> dict[str, str]:
        """What each state key of a completed node held when it completed (recorded for
        nodes a later step may partly supersede; empty for the others)."""
        return dict(self._recorded.get(self._lookup(node), {}))

    def responsible_keys(self) -> dict[str, frozenset[str]]:
        """For each completed state node, the state keys that no completed descendant
        governs: what its end check answers for (see :meth:`final_check`)."""
        done = set(self._completed_order)
        return {
            self.ids[i]: self._free_keys(i, done)
            for i in self._completed_order
            if self._end_checks[i] is not None
        }

    @property
    def completion_ratio(self) -> float:
        """CRAB's CR = C / N, with regressed state nodes not counted."""
        return (len(self._completed_order) - len(self._regressed)) / len(self.ids)

    @property
    def is_complete(self) -> bool:
        return not self._regressed and len(self._completed_order) == len(self.ids)

    @property
    def steps(self) -> int:
        return self._step

    # -------------------------------------------------------------- checking
    def step(self, envs: Mapping[str, Any]) -> StepReport:
        """Check the active nodes against ``envs`` and cascade completions to a fixpoint.

        Args:
            envs: Environment name -> environment; evaluators pick theirs by name (empty
                when no evaluator takes an ``env``).
        """
        self._step += 1
        checks: list[NodeCheck] = []
        completed: list[str] = []
        frontier = list(self._active)
        while frontier:
            activated: list[int] = []
            for i in frontier:
                check = self._check(i, envs)
                checks.append(check)
                if check.success:
                    completed.append(self.ids[i])
                    activated.extend(self._complete(i, envs))
            frontier = activated
        return StepReport(self._step, checks, completed)

    def final_check(self, envs: Mapping[str, Any]) -> list[str]:
        """Check the end state; return (and remember) the nodes that regressed.

        Every completed state node answers for its state keys that no completed
        descendant governs: re-checked when that is all of them, superseded when it is
        none, and otherwise held to what those keys held when it completed (a relation
        such as ``cmp a b`` is not re-run once the task changed ``b``; ``a`` must still
        be as it was).

        Call it once, after the last action (a second call only reports new regressions).
        """
        regressed = []
        done = set(self._completed_order)
        self._end = []
        for i in self._completed_order:
            end = self._fixed_end.get(i, self._end_checks[i])
            node = self.ids[i]
            if end is None:
                self._end.append(EndCheck(node, "moment"))
                continue
            by = next(((j, key) for j, key in self._superseders[i] if j in done), None)
            if by is not None:
                reason = f"superseded by {self.ids[by[0]]}, which governs the same {by[1]}"
                verdict = self._unchanged(i, self._free_keys(i, done), envs, reason)
                self._end.append(verdict)
                if verdict.verdict == "regressed" and i not in self._regressed:
                    regressed.append(i)
                continue
            check = self._run(i, end, envs)
            if check.success:
                self._end.append(EndCheck(node, "held", check.message))
            else:
                self._end.append(EndCheck(node, "regressed", check.message, check.error))
                if i not in self._regressed:
                    regressed.append(i)
        self._regressed.extend(regressed)
        return [self.ids[i] for i in regressed]

    # ------------------------------------------------------------- internals
    def _check(self, i: int, envs: Mapping[str, Any]) -> NodeCheck:
        return self._run(i, self._evaluators[i], envs)

    def _run(self, i: int, ev: Evaluator, envs: Mapping[str, Any]) -> NodeCheck:
        node = self.ids[i]
        try:
            result = ev.check(envs)
        except Exception as exc:  # evaluator bugs are recorded, never raised into the episode
            return NodeCheck(node, False, error=f"{type(exc).__name__}: {exc}")
        return NodeCheck(node, result.success, result.message, result.progress)

    def _free_keys(self, i: int, done: set[int]) -> frozenset[str]:
        """Node ``i``'s keys that no completed descendant governs."""
        later = [self._keys[j] for j, _ in self._superseders[i] if j in done]
        return frozenset(
            k for k in self._keys[i] if not any(keys_overlap(k, b) for b in chain(*later))
        )

    def _unchanged(
        self, i: int, keys: frozenset[str], envs: Mapping[str, Any], superseded: str
    ) -> EndCheck:
        """The end check of a node that completed descendants partly supersede: each of
        its other keys holds what it held when the node completed."""
        node = self.ids[i]
        recorded = self._recorded.get(i, {})
        kept = sorted(k for k in keys if k in recorded)
        if not kept:  # nothing left to answer for, or no environment could say what it held
            return EndCheck(node, "superseded", superseded)
        try:
            now = _fingerprints(self._evaluators[i], envs, set(kept))
        except Exception as exc:  # reported as this node's regression, like an evaluator's
            error = f"{type(exc).__name__}: {exc}"
            return EndCheck(node, "regressed", "its state could not be read", error)
        changed = [k for k in kept if now.get(k) != recorded[k]]
        if changed:
            message = "; ".join(
                f"{_state_name(k)} is {_held(now.get(k))} at the end but was "
                f"{_held(recorded[k])} when this checkpoint completed, and no later step "
                "of the task governs it"
                for k in changed
            )
            return EndCheck(node, "regressed", message)
        names = ", ".join(_state_name(k) for k in kept)
        return EndCheck(node, "held", f"{superseded}; {names} unchanged since it completed")

    def _complete(self, i: int, envs: Mapping[str, Any]) -> list[int]:
        ev = self._evaluators[i]
        if self._superseders[i] and self._end_checks[i] is not None:
            # A later step may supersede part of this node's state: record what the rest
            # holds now, which is what it must still hold at the end.
            try:
                self._recorded[i] = _fingerprints(ev, envs, self._keys[i])
            except Exception as exc:  # an unreadable key is compared as such at the end
                self._recorded[i] = dict.fromkeys(self._keys[i], f"unreadable ({exc})")
        if ev.fixes_end_state:
            try:
                self._fixed_end[i] = ev.completed_end_check(envs)
            except Exception as exc:  # reported as this node's regression at the end
                self._fixed_end[i] = _Broken(ev, f"{type(exc).__name__}: {exc}")
        del self._active[i]
        self._state[i] = _COMPLETED
        self._completed_order.append(i)
        self._completed_at[i] = self._step
        activated = []
        for s in self._successors[i]:
            self._pending[s] -= 1
            if self._pending[s] == 0:
                self._state[s] = _ACTIVE
                self._active[s] = None
                activated.append(s)
        return activated

    def _lookup(self, node: Hashable) -> int:
        if isinstance(node, str) and node in self._index:
            return self._index[node]
        if node in self._objects:
            return self._objects[node]
        raise KeyError(f"no node {node!r} in this graph (ids: {', '.join(self.ids[:10])}...)")


class _Broken(Evaluator):
    """The end check of a node whose ``end_state`` hook raised: it fails with the error."""

    def __init__(self, source: Evaluator, error: str) -> None:
        self.name, self.description, self.env_name = source.name, error, None
        self.bound, self.needs_env, self.moment = {}, False, False
        self.governs, self.end_state = None, None
        self.error = error

    def check(self, envs: Mapping[str, Any]) -> Any:
        raise RuntimeError(self.error)


def _leaves(ev: Evaluator) -> Iterable[Evaluator]:
    """The parts of a combined evaluator (``a & b``), each routed to its own environment."""
    parts: tuple[Evaluator, ...] | None = getattr(ev, "parts", None)
    if parts is None:
        yield ev
    else:
        for part in parts:
            yield from _leaves(part)


def _fingerprints(ev: Evaluator, envs: Mapping[str, Any], keys: Collection[str]) -> dict[str, str]:
    """What each of ``keys`` (of ``ev``, scoped as :meth:`Evaluator.state_keys` scopes
    them) holds now, read from the environment each part of ``ev`` reads; keys no
    environment can fingerprint are left out."""
    found: dict[str, str] = {}
    for leaf in _leaves(ev):
        mine = [k for k in leaf.state_keys() if k in keys]
        env = leaf.pick_env(envs) if mine else None
        fingerprint = getattr(env, "state_fingerprint", None)
        if fingerprint is None:
            continue
        scope = f"{leaf.env_name}|" if leaf.env_name else ""
        raw = {(k[len(scope) :] if scope and k.startswith(scope) else k): k for k in mine}
        for key, value in fingerprint(list(raw)).items():
            if key in raw:
                found[raw[key]] = value
    return found


def _held(fingerprint: str | None) -> str:
    if fingerprint is None:
        return "unreadable"
    return fingerprint if len(fingerprint) <= 48 else fingerprint[:45] + "..."


def _superseders(
    ids: list[str], evaluators: list[Evaluator], dag: nx.DiGraph[Any]
) -> tuple[list[frozenset[str]], list[tuple[tuple[int, str], ...]]]:
    """Each node's state keys, and for each node its descendants governing a key that
    overlaps one of its own, with a readable name of the shared state (computed once per
    graph, not per step)."""
    try:
        keys = [ev.state_keys() for ev in evaluators]
    except Exception as exc:
        raise GraphError(f"a checkpoint's state keys could not be computed: {exc}") from exc
    result: list[tuple[tuple[int, str], ...]] = []
    for i in range(len(ids)):
        found: list[tuple[int, str]] = []
        if keys[i]:
            for j in sorted(nx.descendants(dag, i)):
                shared = next(
                    (a for a in sorted(keys[i]) for b in keys[j] if keys_overlap(a, b)), None
                )
                if shared is not None:
                    found.append((j, _state_name(shared)))
        result.append(tuple(found))
    return keys, result


def _state_name(key: str) -> str:
    """``desktop|file:/home/user/a.txt`` -> ``file /home/user/a.txt``."""
    kind, _, what = key.rpartition("|")[2].partition(":")
    return f"{kind} {what}".strip()


def _normalise(
    graph: nx.DiGraph[Any] | Mapping[str, Evaluator], edges: Iterable[tuple[str, str]]
) -> tuple[list[str], list[Evaluator], nx.DiGraph[Any]]:
    """Index nodes 0..n-1 and return (ids, evaluators, integer DiGraph)."""
    dag: nx.DiGraph[Any] = nx.DiGraph()
    if isinstance(graph, nx.DiGraph):
        keys: list[str] = []
        evaluators: list[Evaluator] = []
        seen: dict[str, int] = {}
        index: dict[Hashable, int] = {}
        for node, data in graph.nodes(data=True):
            ev = node if isinstance(node, Evaluator) else data.get("evaluator")
            if not isinstance(ev, Evaluator):
                raise GraphError(
                    f"graph node {node!r} is neither an Evaluator nor has an 'evaluator' attribute"
                )
            key = ev.label if isinstance(node, Evaluator) else str(node)
            if key in seen:  # the same check twice, e.g. in two branches
                seen[key] += 1
                key = f"{key}#{seen[key]}"
            else:
                seen[key] = 1
            index[node] = len(keys)
            keys.append(key)
            evaluators.append(ev)
        dag.add_nodes_from(range(len(keys)))
        dag.add_edges_from((index[u], index[v]) for u, v in graph.edges)
        return keys, evaluators, dag
    keys = [str(k) for k in graph]
    evaluators = list(graph.values())
    for key, ev in zip(keys, evaluators, strict=True):
        if not isinstance(ev, Evaluator):
            raise GraphError(f"node '{key}' is {type(ev).__name__}, not an Evaluator")
    position = {k: i for i, k in enumerate(keys)}
    dag.add_nodes_from(range(len(keys)))
    for u, v in edges:
        for end in (u, v):
            if end not in position:
                raise GraphError(f"edge ({u!r}, {v!r}) names unknown node {end!r}")
        dag.add_edge(position[u], position[v])
    return keys, evaluators, dag
