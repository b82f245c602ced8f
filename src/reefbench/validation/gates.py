"""The validation gates: every task of a suite proven solvable and non-trivial.

For each task, on real environments:

1. its reference solution reaches success (the oracle agent): every checkpoint completes,
   every state checkpoint still holds at the end (or a later step of the task that
   governs the same state supersedes it), and nothing else changed (no side effects:
   the desktop's home tree and settings, the account's rows, the phone's settings);
2. after that episode, evaluating every checkpoint twice on the same final state gives the
   same results (no flaky checkpoint);
3. every alternative solution also reaches success. A composed task's alternative plays
   the alternative of each of its subtasks that has one; like near misses (8), each
   template's alternative is played in the smallest task that uses it, and a task made
   of no template plays its own (``every_alternative`` plays every task's: reef-v1 has 44
   tasks with an alternative, whose 18 templates with one the gates cover in 17 of them);
4. the null agent (does nothing, declares completion) completes no checkpoint: CR = 0.
   Judged at the start of the oracle's episode (a probe at turn 1, before its first
   action: the state the null agent would declare complete in), not in an episode of
   its own;
5. a composed task's instruction passes the consistency validator;
6. a long chain can start after any of its subtasks (VeriGUI SR@k): with the first ``k``
   subtasks played, the oracle finishes it, and every later subtask's checkpoints are
   reached by the oracle's own actions (none of them already holds after the prefix).
   An episode started after ``k`` subtasks plays the reference's first calls as its
   prefix, with the same grounding and the same checks after each call, then the oracle
   plays the rest: the oracle's own episode is the same sequence. So every ``k`` is
   judged from the oracle's trajectory (which checkpoints completed after the prefix's
   last call), and one real start, after the middle subtask, proves that the prefix
   replays on reset environments (one episode instead of one per subtask; it was a
   quarter of the gates' work);
7. the reference solution without its last action that changes anything does not
   succeed: a checkpoint verifies the final step, so stopping one step short fails
   (trailing waits and the closing of an app whose work is saved are passed over).
   It is judged within the oracle's episode, which plays the same calls: at the turn
   where the shortened reference would declare completion, the episode works out what
   completing there would score (the check after the call, the settled final check and
   the side effects, on a fork of its graph evaluator, environments only read) and then
   goes on; this gives the verdict a separate replay would, for one episode less;
8. every near miss of every template (:class:`~reefbench.tasks.subtask.NearMiss`: a plausible
   wrong behaviour) fails: played in place of its subtask's part of the reference
   solution, in the smallest task that uses the template, the subtask's checkpoints do
   not all complete and the task does not succeed; a near miss may act on a device the
   reference leaves alone (the wrong device), and one whose own calls fail is reported;
9. the instruction passes the lint (:mod:`.lint`): no action names, internal ids or
   settings keys, no secret it asks to find, no contradictory goals, not only opening
   apps, no odd value combinations, nothing that invites a safety refusal;
10. no certified solution avoids a device or app the instruction names (:mod:`.devices`);
11. what an earlier subtask made must still be there at the end: the reference with a
    file an earlier subtask made deleted (or a setting it changed set back) before the
    last subtask does not succeed, for one state key per task that no later step governs
    (:mod:`.end_state_case`; judged inside the oracle's episode, on a fork of its graph
    evaluator, for no extra episode).

Gates 5, 9 and 10 are static (:func:`static_problems`): they read the task only, run over
the whole suite in seconds, and a task that fails them is not played.

The gates' agents do not observe (``observe=False``): an agent's per-turn observation of
every device was a third to a half of an oracle episode's time, and they read nothing from
it; each name-addressed call is grounded in a fresh observation of its own device instead.

Episodes run like the runner's: N worker threads, each owning one set of environments
(started once, reset by every episode). Playwright objects belong to the thread that
made them, so each worker builds its own set.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field

from reefbench.actions.sets import DEFAULT_ACTION_SET, get_action_set
from reefbench.actions.spec import ActionCall
from reefbench.agents import OracleAgent, ScriptedAgent
from reefbench.compose.consistency import check_instruction
from reefbench.environments.contract import Environment
from reefbench.episodes.episode import Episode, EpisodeResult
from reefbench.plumbing.waiting import wait_until
from reefbench.tasks.instructions import InstructionGraph
from reefbench.tasks.subtask import SubTask
from reefbench.tasks.task import Task
from reefbench.validation.devices import device_problems
from reefbench.validation.end_state_case import end_state_problems
from reefbench.validation.lint import lint_problems

EnvironmentFactory = Callable[[], Mapping[str, Environment]]

RemoteChecks = Callable[
    [list[Task], int, Callable[[Task], tuple[set[str], bool]], Callable[["Verdict"], None]],
    None,
]
"""Plays the gates of ``tasks`` (in this order) on ``count`` workers elsewhere, given each
task's near misses and whether its alternatives are played, and hands each verdict to
``record`` (:func:`reefbench.validation.distributed.on_ray`: a Ray cluster)."""

# The gates' episodes forgive no invalid action (CRAB's rule, the default before issue 31):
# a reference solution or near miss with a call that cannot run as written is a broken
# task, whatever a run's agents are forgiven.
STRICT = 0

SOLUTION_TRIES = 2
"""How often a reference or alternative solution is played before its failure counts.
The gates' agents play without observing, so a GUI step can outrun an app slowed by a
loaded machine (a dialog that maps after the next keystroke was typed): CI lost a whole run
to one such miss of a solution that passes on every quiet replay. One pass proves the task
solvable; a solution that needed its second try is named in :attr:`Verdict.retried` (and
by ``reef suite check``) so a solution that races the app shows up without failing a run.
Near misses are never replayed: a miss that fails by accident errs on the safe side only
when it passes, and that is what the gate looks for."""


@dataclass
class Verdict:
    """What the gates found for one task (``problems`` empty: the task passed)."""

    task_id: str
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    episodes: int = 0
    undone: str = ""
    """What gate 11 undid ('' when the task has no state key it applies to)."""
    node: str = ""
    """The Ray node that checked the task ('' when checked on this machine)."""
    retried: list[str] = field(default_factory=list)
    """The solutions that passed only on their second try ("oracle", "alternative 0")."""

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        return f"{self.task_id}: " + ("ok" if self.ok else "; ".join(self.problems))


def instruction_problems(task: Task, pool: Mapping[str, SubTask]) -> list[str]:
    """Consistency-validator findings for a composed task (none for a handmade one)."""
    subtasks = task.metadata.subtasks
    if not subtasks or {"handmade", "steps"} & set(task.metadata.tags):
        return []  # written by hand, or OS-MAP L1 steps: not the structure-preserving form
    index = {info.id: int(info.id[1:]) for info in subtasks}
    texts = [""] * len(subtasks)
    for info in subtasks:
        template = pool.get(info.template)
        if template is None:
            return [f"subtask {info.id}: template {info.template!r} is not in the pool"]
        texts[index[info.id]] = template.description.format(**info.attributes)
    for kind, value in task.user_data.items():  # OS-MAP L3: details only the user knows
        if kind not in ("username", "password"):
            texts = [t.replace(value, f"[ask the user for the {kind}]") for t in texts]
    edges = [(index[u], index[v]) for u, v in task.metadata.subtask_links]
    report = check_instruction(task.instruction, InstructionGraph.of(texts, edges))
    return [f"instruction: {p}" for p in report.problems]


def static_problems(
    task: Task, pool: Mapping[str, SubTask], known_faults: Mapping[str, str] | None = None
) -> list[str]:
    """Gates 5, 9 and 10: consistency of a composed instruction, the instruction lint and
    the device/app check; no environment needed.

    ``known_faults`` (a published release's: task id -> the fault, as its release lists
    it) holds faults found after publication, which its data can no longer fix: a problem
    of such a task that names its fault is left out (the task is still played), so the
    gates keep judging everything else about it."""
    found = instruction_problems(task, pool) + lint_problems(task, pool) + device_problems(task)
    known = (known_faults or {}).get(task.id)
    return [p for p in found if known is None or known not in p]


def _failure(label: str, result: EpisodeResult) -> str:
    missing = result.total_nodes - len(result.credited_nodes)
    detail = result.error or f"{missing} of {result.total_nodes} checkpoints not reached"
    failed = [c for turn in result.trajectory for c in turn.calls if c.status != "ok"]
    if failed and not result.error:
        first = failed[0]
        detail += f"; first failed action: {first.env}.{first.name}: {first.error}"
    if not result.error:
        detail += _unreached(result)
    regressed = [c for c in result.end_checks if c.verdict == "regressed"]
    if regressed:
        detail += "; at the end " + "; ".join(f"{c.node}: {c.message}" for c in regressed)
    if result.side_effects:
        detail += "; side effects: " + "; ".join(result.side_effects)
    return f"{label} ended with {result.termination} ({detail})"


def _unreached(result: EpisodeResult) -> str:
    """Which checkpoints were not reached, with what each last said: a failure in CI must
    be diagnosable from its one line."""
    last: dict[str, str] = {}
    for turn in result.trajectory:
        for call in turn.calls:
            for check in call.checks:
                last[check.node] = check.error or check.message
    done = set(result.completed_nodes)
    missing = [n for n in last if n not in done]
    if not missing:
        return ""
    return "; not reached: " + "; ".join(f"{n}: {last[n][:160]}" for n in missing)


def used_environments(task: Task, envs: Mapping[str, Environment]) -> dict[str, Environment]:
    """The environments a task's checkpoints, setup and solutions touch (plus any that own
    shared state, e.g. the account), so episodes neither reset nor observe idle devices."""
    names = {ev.env_name for ev in task.nodes.values()} | {s.env for s in task.setup}
    names |= {c.env for s in (task.reference_solution, *task.alternative_solutions) for c in s}
    names |= {s.env for s in task.extra_actions} | set(task.metadata.environments)
    return {k: e for k, e in envs.items() if k in names or not e.observation_space}


def _unstable_checkpoints(
    task: Task, envs: Mapping[str, Environment], within: float = 5.0
) -> list[str]:
    """Checkpoints whose result differs between two evaluations of the same final state.

    An app may still be closing when the last action returns (the state is not final
    yet), so evaluation repeats until two rounds in a row agree, up to ``within`` seconds;
    what still disagrees then is reported.
    """
    previous = {k: ev.check(envs).success for k, ev in task.nodes.items()}
    differ: list[str] = []

    def agree() -> bool:
        nonlocal previous, differ
        current = {k: ev.check(envs).success for k, ev in task.nodes.items()}
        differ = [k for k in task.nodes if current[k] != previous[k]]
        previous = current
        return not differ

    wait_until(agree, within, interval=0.1)
    return differ


def _smallest_users(
    tasks: Iterable[Task], counts: Callable[[str], bool] = lambda template: True
) -> dict[str, str]:
    """Template -> id of the task with the fewest subtasks that uses it (the first such
    task in suite order), over the templates ``counts`` accepts."""
    best: dict[str, tuple[int, int, str]] = {}
    for order, task in enumerate(tasks):
        for info in task.metadata.subtasks:
            if not counts(info.template):
                continue
            rank = (len(task.metadata.subtasks), order, task.id)
            if info.template not in best or rank < best[info.template]:
                best[info.template] = rank
    return {template: task_id for template, (_, _, task_id) in best.items()}


def near_miss_plan(tasks: Iterable[Task]) -> dict[str, set[str]]:
    """Task id -> the templates whose near misses it plays: each template in the task with
    the fewest subtasks that uses it (the first such task in suite order)."""
    plan: dict[str, set[str]] = {}
    for template, task_id in _smallest_users(tasks).items():
        plan.setdefault(task_id, set()).add(template)
    return plan


def gate_sample(tasks: Iterable[Task], pool: Mapping[str, SubTask]) -> list[Task]:
    """The tasks that play every template's part of the gates, in suite order: each
    template's smallest task (its near misses: :func:`near_miss_plan`), the tasks whose
    alternatives are played (:func:`alternative_plan`), every task no template speaks for
    (no subtasks) and, of the tasks composed by hand from templates, the smallest of each
    combination of devices (:func:`handmade_plan`). Gates that judge a template's code (its
    reference, near misses, alternatives, checkpoints, long-chain starts) see all of it
    here; the rest of a suite differs only in values and compositions, which the gate
    record of a full run vouches for (:mod:`reefbench.suites.gate_record`)."""
    tasks = list(tasks)
    chosen = set(near_miss_plan(tasks)) | alternative_plan(tasks, pool) | handmade_plan(tasks)
    chosen |= {t.id for t in tasks if not t.metadata.subtasks}
    return [t for t in tasks if t.id in chosen]


def handmade_plan(tasks: Iterable[Task]) -> set[str]:
    """Ids of the tasks composed by hand (tag ``handmade``) that the sample plays: for each
    combination of devices they use, the one with the fewest subtasks (the first in suite
    order). Their subtasks are templates the sample judges elsewhere; what is their own is
    the composition, whose kinds are the device combinations (make test had played all 51
    of reef-v1's, a quarter of its gate time)."""
    best: dict[tuple[str, ...], tuple[int, int, str]] = {}
    for order, task in enumerate(tasks):
        if "handmade" not in task.metadata.tags or not task.metadata.subtasks:
            continue
        devices = tuple(sorted(task.metadata.environments))
        rank = (len(task.metadata.subtasks), order, task.id)
        if devices not in best or rank < best[devices]:
            best[devices] = rank
    return {task_id for _, _, task_id in best.values()}


def alternative_plan(tasks: Iterable[Task], pool: Mapping[str, SubTask]) -> set[str]:
    """Ids of the tasks whose alternative solutions the gates play: for each template of
    ``pool`` with alternatives, the task with the fewest subtasks that uses it (picked as
    :func:`near_miss_plan` picks), and every task with alternatives none of whose templates
    in the pool has any (a handmade task's are its own)."""

    def has_alternatives(template: str) -> bool:
        return template in pool and bool(pool[template].alternative_generators)

    with_alternatives = [t for t in tasks if t.alternative_solutions]
    own = {
        t.id
        for t in with_alternatives
        if not any(has_alternatives(i.template) for i in t.metadata.subtasks)
    }
    return own | set(_smallest_users(with_alternatives, has_alternatives).values())


def _near_miss_problems(
    task: Task,
    envs: Mapping[str, Environment],
    templates: set[str],
    action_set: str = DEFAULT_ACTION_SET,
) -> tuple[list[str], int]:
    """Play the task's own near misses (stored with it, so a frozen task plays what it
    was frozen with) of the subtasks made from ``templates``."""
    problems: list[str] = []
    episodes = 0
    infos = {info.id: info for info in task.metadata.subtasks}
    for near in task.near_misses:
        info = infos.get(near.subtask)
        if info is None or info.template not in templates:
            continue
        calls = task.near_miss_solution(near)
        start = info.solution_span[0]
        played_envs = _with_devices_of(task, near.calls, envs)
        agent = ScriptedAgent(([c] for c in calls), observe=False)
        result = Episode(
            task, agent, played_envs, action_set=action_set, invalid_tolerance=STRICT
        ).run()
        episodes += 1
        label = f"near miss of {info.template} ({near.label})"
        broken = _failed_calls(result, range(start, start + len(near.calls)))
        if result.infrastructure_failure:
            problems.append(_failure(label, result))
        elif result.success or set(info.nodes) <= set(result.credited_nodes):
            problems.append(f"{label} completes {info.nodes}: its checkpoints accept it")
        elif broken:
            # A near miss that cannot be played fails for the wrong reason and proves
            # nothing about the checkpoints (a wrong device it could not even reach).
            problems.append(f"{label} could not be played: {broken}")
    return problems, episodes


def _with_devices_of(
    task: Task, calls: list[ActionCall], envs: Mapping[str, Environment]
) -> dict[str, Environment]:
    """The environments for playing ``calls``: a near miss may act on a device the
    reference solution leaves alone (the wrong device), which an agent has too."""
    devices = {c.env for c in calls}
    used = used_environments(task, envs)
    return {**used, **{d: env for d, env in envs.items() if d in devices}}


def _failed_calls(result: EpisodeResult, turns: range) -> str:
    """The first failed call among ``turns`` of a scripted episode (one call per turn), as
    text; '' when all of them ran."""
    for index in turns:
        if index >= len(result.trajectory):
            break
        for record in result.trajectory[index].calls:
            if record.status != "ok":
                return f"{record.env}.{record.name}: {(record.error or record.status)[:120]}"
    return ""


def check_task(
    task: Task,
    envs: Mapping[str, Environment],
    *,
    pool: Mapping[str, SubTask] | None = None,
    near_misses_of: set[str] | frozenset[str] = frozenset(),
    alternatives: bool = True,
    action_set: str = DEFAULT_ACTION_SET,
) -> Verdict:
    """Run gates 1-4, 6-8 and 11 for one task on started-or-not environments (they are reset);
    gate 3 plays the task's alternative solutions if ``alternatives`` (see
    :func:`alternative_plan`), gate 8 its near misses of the templates in
    ``near_misses_of`` (``pool`` is accepted for symmetry with :func:`run_gates`; the near
    misses live in the task).
    Every episode runs under ``action_set``: under ``pixels`` the stored solutions are
    played through coordinates, which proves the task solvable by pixels alone."""
    started = time.perf_counter()
    every_env, envs = envs, used_environments(task, envs)
    verdict = Verdict(task.id)
    short = truncated_reference(task)
    oracle, result = _play_the_oracle(task, envs, short, action_set, verdict)
    for number in range(len(task.alternative_solutions) if alternatives else 0):
        _play_alternative(task, envs, number, action_set, verdict)
    if "long-chain" in task.metadata.tags:
        _check_long_chain(task, envs, result, action_set, verdict)
    _check_the_last_step_counts(task, oracle, short, result, verdict)
    if near_misses_of:
        found, played = _near_miss_problems(task, every_env, set(near_misses_of), action_set)
        verdict.problems += found
        verdict.episodes += played
    _check_the_null_agent(oracle, verdict)
    verdict.seconds = time.perf_counter() - started
    return verdict


def _play_the_oracle(
    task: Task,
    envs: Mapping[str, Environment],
    short: list[ActionCall] | None,
    action_set: str,
    verdict: Verdict,
) -> tuple[Episode, EpisodeResult]:
    """Gates 1, 2 and 11: the reference solution succeeds, its checkpoints agree on the
    same final state, and what earlier subtasks made is checked at the end (the end-state
    case). The episode and its result are returned for the gates judged inside it.

    Gates 4 and 7 are judged inside the oracle's episode: the null agent declares
    completion before any action, the shortened reference (``short``) after the same
    calls, so at those turns the oracle's episode asks what completing there would give,
    then goes on (see Episode.probe_at)."""
    probe_at = {1} if short is None else {1, len(short) + 1}
    failures: list[str] = []
    for _ in range(SOLUTION_TRIES):
        oracle = Episode(
            task,
            OracleAgent(observe=False),
            envs,
            action_set=action_set,
            probe_at=probe_at,
            invalid_tolerance=STRICT,
        )
        result = oracle.run()
        verdict.episodes += 1
        if result.success:
            break
        failures.append(_failure("oracle", result))
    if not result.success:
        verdict.problems.append(_tried_twice(failures))
    else:
        if failures:
            verdict.retried.append("oracle")
        flaky = _unstable_checkpoints(task, oracle.envs)
        if flaky:
            verdict.problems.append(f"checkpoints {flaky} differ on the same final state")
        # Last on the oracle's end state: it changes that state (later episodes reset it).
        found, verdict.undone = end_state_problems(task, oracle)
        verdict.problems += found
    return oracle, result


def _play_alternative(
    task: Task, envs: Mapping[str, Environment], number: int, action_set: str, verdict: Verdict
) -> None:
    """Gate 3: the task's alternative solution ``number`` succeeds too."""
    failures: list[str] = []
    for _ in range(SOLUTION_TRIES):
        alternative = Episode(
            task,
            OracleAgent(alternative=number, observe=False),
            envs,
            action_set=action_set,
            invalid_tolerance=STRICT,
        ).run()
        verdict.episodes += 1
        if alternative.success:
            if failures:
                verdict.retried.append(f"alternative {number}")
            return
        failures.append(_failure(f"alternative solution {number}", alternative))
    verdict.problems.append(_tried_twice(failures))


def _tried_twice(failures: list[str]) -> str:
    """One problem for a solution that failed on every try: the first failure, and the
    later ones only where they differ (a different checkpoint missed is worth reading)."""
    first, *later = failures
    others = [f for f in dict.fromkeys(later) if f != first]
    again = f" (again on try {len(failures)})" if not others else ""
    return "; then ".join([first + again, *others])


def _check_long_chain(
    task: Task,
    envs: Mapping[str, Environment],
    result: EpisodeResult,
    action_set: str,
    verdict: Verdict,
) -> None:
    """Gate 6: every start ``k`` is judged from the oracle's trajectory (later subtasks'
    checkpoints are reached by its own actions), and one real start after the middle
    subtask proves that the prefix replays on reset environments (one more episode)."""
    if result.success:
        for k in range(1, len(task.metadata.subtasks)):
            verdict.problems += late_checkpoint_problems(task, result, k)
    replayed = chain_start_problems(task, envs, _replayed_start(task), action_set)
    verdict.problems += [p for p in replayed if p not in verdict.problems]
    verdict.episodes += 1


def _check_the_last_step_counts(
    task: Task,
    oracle: Episode,
    short: list[ActionCall] | None,
    result: EpisodeResult,
    verdict: Verdict,
) -> None:
    """Gate 7: the reference without its last (non-cleanup) action must not succeed, or
    no checkpoint verifies that step (judged from the oracle's probe at that turn)."""
    # No probe: the oracle's episode ended before that turn, which it does only when
    # every checkpoint was done earlier (the shortened reference then ends the same way)
    # or when it failed (already reported).
    probe = None if short is None else oracle.probes.get(len(short) + 1)
    stops_short_ok = probe.success if probe is not None else result.success
    if short is not None and stops_short_ok:
        last = task.reference_solution[len(short)]
        verdict.problems.append(
            f"the reference solution without its last action ({last.env}.{last.name}) "
            "still succeeds: no checkpoint verifies that step"
        )


def _check_the_null_agent(oracle: Episode, verdict: Verdict) -> None:
    """Gate 4: completing before any action (the oracle's probe at turn 1) completes no
    checkpoint and raises no evaluator error."""
    # No probe at turn 1: the oracle's episode did not get that far (already reported).
    null = oracle.probes.get(1)
    if null is not None and null.error is not None:
        verdict.problems.append(f"null agent ended with evaluator_error ({null.error})")
    elif null is not None and null.completed:
        verdict.problems.append(
            f"null agent completed {list(null.completed)}: they hold before the agent acts"
        )


# Calls that change nothing a checkpoint reads: waiting, and closing an app whose work is
# already saved (quitting the editor, leaving the terminal). A reference that ends with
# them is cut before them.
CLEANUP_CALLS: tuple[ActionCall, ...] = (
    ActionCall(env="desktop", name="hotkey", arguments={"keys": ["ctrl", "q"]}),
    ActionCall(env="desktop", name="write_text", arguments={"text": "exit\n"}),
)


def _changes_nothing(call: ActionCall) -> bool:
    return call.name == "wait" or call in CLEANUP_CALLS


def truncated_reference(task: Task) -> list[ActionCall] | None:
    """The reference solution without its last action that changes anything (``None``
    when nothing would be left to play: the null agent's gate covers that case)."""
    calls = list(task.reference_solution)
    while calls and _changes_nothing(calls[-1]):
        calls.pop()
    return calls[:-1] if len(calls) > 1 else None


def _replayed_start(task: Task) -> int:
    """The one start of a long chain the gates play for real: after its middle subtask."""
    return len(task.metadata.subtasks) // 2


def _early(task: Task, k: int, by_agent: set[str]) -> list[str]:
    later = [n for info in task.metadata.subtasks[k:] for n in info.nodes]
    early = [n for n in later if n not in by_agent]
    if early:
        return [f"starting after subtask {k}: {early} already held before the agent acted"]
    return []


def late_checkpoint_problems(task: Task, oracle: EpisodeResult, k: int) -> list[str]:
    """Gate 6 for a start after ``k`` subtasks, judged from the oracle's episode: the
    oracle plays one reference call per turn, so the prefix is its first turns and "by
    the agent" means completed by a later call."""
    end = task.metadata.subtasks[k - 1].solution_span[1]
    by_agent = {
        n for turn in oracle.trajectory if turn.step > end for c in turn.calls for n in c.completed
    }
    return _early(task, k, by_agent)


def chain_start_problems(
    task: Task, envs: Mapping[str, Environment], k: int, action_set: str = DEFAULT_ACTION_SET
) -> list[str]:
    agent = OracleAgent(start_at=k, observe=False)
    result = Episode(
        task, agent, envs, start_at=k, action_set=action_set, invalid_tolerance=STRICT
    ).run()
    if not result.success:
        return [_failure(f"the oracle from subtask {k}", result)]
    by_agent = {n for turn in result.trajectory for c in turn.calls for n in c.completed}
    return _early(task, k, by_agent)


def gate_cost(task: Task, near_misses: Collection[str], alternatives: bool = True) -> int:
    """A task's gate time in reference actions, roughly: its solution's length times the
    episodes its gates play (the oracle, the planned near misses, the alternatives if
    played, a long chain's replayed start).
    :func:`run_gates` starts the costliest tasks first, so two workers finish together
    instead of one playing a long chain alone at the end."""
    episodes = 1 + len(near_misses) + (len(task.alternative_solutions) if alternatives else 0)
    episodes += "long-chain" in task.metadata.tags
    return task.solution_actions * episodes


def run_gates(
    tasks: Iterable[Task],
    make_environments: EnvironmentFactory,
    *,
    pool: Mapping[str, SubTask] | None = None,
    workers: int = 2,
    on_verdict: Callable[[Verdict], None] | None = None,
    action_set: str = DEFAULT_ACTION_SET,
    every_alternative: bool = False,
    known_faults: Mapping[str, str] | None = None,
    elsewhere: RemoteChecks | None = None,
) -> list[Verdict]:
    """All gates for all tasks, ``workers`` tasks at a time, under ``action_set``;
    verdicts in task order. With a ``pool``, near misses and alternatives are played per
    template (:func:`near_miss_plan`, :func:`alternative_plan`; ``every_alternative``
    plays every task's alternatives); without one, every task's alternatives.
    ``known_faults``: a published release's faults (:func:`static_problems`).
    ``elsewhere``: play the gates there instead of in this process's threads (a Ray
    cluster: :func:`reefbench.validation.distributed.on_ray`).

    Raises:
        ConfigError: ``action_set`` is not a known set (or ``elsewhere`` refuses the work).
    """
    get_action_set(action_set)  # an unknown set fails before any device starts
    todo = list(tasks)
    plan = near_miss_plan(todo) if pool is not None else {}
    with_alternatives = (
        alternative_plan(todo, pool)
        if pool is not None and not every_alternative
        else {t.id for t in todo}
    )
    verdicts = _static_failures(todo, pool, known_faults)
    if on_verdict is not None:  # reported like a played task's verdict: they fail too
        for verdict in verdicts.values():
            on_verdict(verdict)
    work: queue.Queue[Task] = queue.Queue()
    for task in sorted(
        todo, key=lambda t: -gate_cost(t, plan.get(t.id, set()), t.id in with_alternatives)
    ):
        if task.id not in verdicts:
            work.put(task)
    lock = threading.Lock()

    def check(task: Task, envs: Mapping[str, Environment]) -> Verdict:
        return check_task(
            task,
            envs,
            pool=pool,
            near_misses_of=plan.get(task.id, set()),
            alternatives=task.id in with_alternatives,
            action_set=action_set,
        )

    def record(verdict: Verdict) -> None:
        with lock:
            verdicts[verdict.task_id] = verdict
            if on_verdict is not None:
                on_verdict(verdict)

    count = max(1, min(workers, work.qsize()))
    if elsewhere is not None and not work.empty():

        def options(task: Task) -> tuple[set[str], bool]:
            return plan.get(task.id, set()), task.id in with_alternatives

        elsewhere(list(work.queue), count, options, record)
    else:
        threads = [
            threading.Thread(
                target=_gate_worker,
                args=(work, make_environments, check, record),
                name=f"reef-gate-{i}",
                daemon=True,
            )
            for i in range(count)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return [verdicts[t.id] for t in todo if t.id in verdicts]


def _static_failures(
    todo: list[Task], pool: Mapping[str, SubTask] | None, known_faults: Mapping[str, str] | None
) -> dict[str, Verdict]:
    """The verdicts of the tasks that fail a static gate (none without a pool): they are
    not played, since an episode could not make up for a broken instruction."""
    verdicts: dict[str, Verdict] = {}
    if pool is not None:
        for task in todo:
            found = static_problems(task, pool, known_faults)
            if found:
                verdicts[task.id] = Verdict(task.id, found)
    return verdicts


def _gate_worker(
    work: queue.Queue[Task],
    make_environments: EnvironmentFactory,
    check: Callable[[Task, Mapping[str, Environment]], Verdict],
    record: Callable[[Verdict], None],
) -> None:
    """One worker thread: take tasks off ``work`` until it is empty and ``check`` each on
    this worker's own environments (made at its first task, stopped at the end); a crash is
    recorded as a failing task, not a dead worker."""
    envs: Mapping[str, Environment] | None = None
    try:
        while True:
            try:
                task = work.get_nowait()
            except queue.Empty:
                return
            if envs is None:
                envs = make_environments()
            try:
                verdict = check(task, envs)
            except Exception as exc:  # a crash is a failing task, not a dead worker
                verdict = Verdict(task.id, [f"gate crashed: {type(exc).__name__}: {exc}"])
            record(verdict)
    finally:
        for env in (envs or {}).values():
            try:
                env.stop()
            except Exception:  # stopping a broken environment may fail; keep going
                continue
