"""reef-v0 without environments: the pool, the task set, its labels and the gate logic.

Everything here runs in seconds; the gates on real environments are in test_v0_gates.py.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from typer.testing import CliRunner

from reefbench.actions.evaluators import Evaluator
from reefbench.actions.spec import ActionCall
from reefbench.agents import OracleAgent
from reefbench.benchmark import composed, handmade
from reefbench.benchmark.finish import is_cross_device
from reefbench.benchmark.templates import BY_PLATFORM, POOL
from reefbench.compose.lint import lint_pool
from reefbench.environments.root import ROOT, RootEnvironment
from reefbench.envs import memory as m
from reefbench.envs.browser.actions import ACTION_SET_ACTIONS as BROWSER_SETS
from reefbench.envs.browser.actions import BROWSER_ACTIONS, choose_file
from reefbench.envs.desktop.actions import ACTION_SET_ACTIONS as DESKTOP_SETS
from reefbench.envs.desktop.actions import DESKTOP_ACTIONS
from reefbench.envs.ui.actions import ACTION_SET_ACTIONS as TOUCH_SETS
from reefbench.envs.ui.actions import TOUCH_ACTIONS
from reefbench.episodes.episode import Episode
from reefbench.suites import get_suite
from reefbench.suites.memory import make_environments as memory_environments
from reefbench.tasks.link import compose_task
from reefbench.tasks.subtask import NearMiss, SubTask
from reefbench.tasks.task import SubtaskInfo, Task, TaskMetadata
from reefbench.validation.gates import (
    CLEANUP_CALLS,
    alternative_plan,
    chain_start_problems,
    check_task,
    instruction_problems,
    late_checkpoint_problems,
    near_miss_plan,
    truncated_reference,
)


@pytest.fixture(scope="module")
def tasks() -> list[Task]:
    return get_suite("v0").load()


def test_the_pool_has_the_required_templates_per_platform_and_lints_clean() -> None:
    assert len(BY_PLATFORM["desktop"]) >= 19
    assert len(BY_PLATFORM["phone"]) >= 17
    assert len(BY_PLATFORM["browser"]) >= 6
    assert len(BY_PLATFORM["cross"]) >= 5
    assert lint_pool(POOL, "v0") == []
    apps = {platform: {POOL[t].app for t in ids} for platform, ids in BY_PLATFORM.items()}
    # CRAB's application mix: CLI, GUI and modal editors, a file manager, settings, the image editor
    assert {"terminal", "mousepad", "vim", "thunar", "image-editor"} <= apps["desktop"]
    assert {
        *("mail", "calendar", "contacts", "tasks", "notes", "messages"),
        *("maps", "clock", "files", "settings"),
    } <= apps["phone"]
    for template in POOL.values():
        assert template.intents and template.app and template.app_category, template.id
        assert template.solution_generator is not None, template.id


def test_task_counts_meet_the_issue(tasks: list[Task]) -> None:
    handmade_ids = {t.id for t in handmade.load()}
    assert len(handmade_ids) >= 16
    assert len(composed.load()) >= 120
    assert len({t.id for t in tasks}) == len(tasks)
    cross = [t for t in tasks if is_cross_device(t)]
    assert len(cross) >= 30
    chains = [t for t in tasks if "long-chain" in t.metadata.tags]
    assert len(chains) >= 10
    for task in chains:
        assert 4 <= len(task.metadata.subtasks) <= 8
        assert len(task.metadata.subtask_links) == len(task.metadata.subtasks) - 1
    sizes = {len(t.nodes) for t in tasks}
    assert min(sizes) == 1 and max(sizes) == 11
    assert set(range(1, 12)) <= sizes


def test_labels_cover_levels_scopes_answers_and_call_user(tasks: list[Task]) -> None:
    assert {t.metadata.level for t in tasks} == {"L1", "L2", "L3", "L4"}
    assert {t.metadata.scope for t in tasks} == {"S1", "S2", "S3"}
    assert all(t.metadata.scenario and t.metadata.domain for t in tasks)
    assert all(t.metadata.complexity.get("instruction_level") for t in tasks)
    assert Counter(c for t in tasks for c in t.metadata.capabilities)
    answers = [t for t in tasks if any(c.name == "submit" for c in t.reference_solution)]
    assert len(answers) >= 5
    signed_out = [t for t in tasks if t.user_data.get("password")]
    assert len(signed_out) >= 3
    for task in signed_out:
        assert task.reference_solution[0].name == "call_user"
        assert any(n.startswith("s0.user_was_asked") for n in task.nodes)


def test_loading_is_deterministic() -> None:
    first = [(t.id, t.instruction) for t in get_suite("v0").load()]
    composed._tasks.cache_clear()
    second = [(t.id, t.instruction) for t in get_suite("v0").load()]
    assert first == second


def test_every_composed_instruction_passes_the_consistency_validator(tasks: list[Task]) -> None:
    checked = 0
    for task in tasks:
        if "handmade" in task.metadata.tags:
            continue
        assert instruction_problems(task, POOL) == [], task.id
        checked += 1
    assert checked >= 120


def test_the_validator_catches_a_wrong_instruction(tasks: list[Task]) -> None:
    # A composed chain: handmade ones (the world's) are not in the validator's form.
    chain = next(
        t for t in tasks if "long-chain" in t.metadata.tags and "handmade" not in t.metadata.tags
    )
    flattened = chain.instruction.replace("Then, using its result, ", "Independently, ")
    broken = chain.model_copy(update={"instruction": flattened})
    assert instruction_problems(broken, POOL)


def test_solutions_use_only_real_actions_and_spans_cover_them(tasks: list[Task]) -> None:
    # Solutions are written in the a11y set (names, not mark numbers); under the default
    # marks set the oracle grounds the name-addressed calls (tests/environments/test_grounding.py).
    a11y = {
        "desktop": [*DESKTOP_ACTIONS, *DESKTOP_SETS["a11y"]],
        "phone": [*TOUCH_ACTIONS, *TOUCH_SETS["a11y"]],
        # The suite's browser is the computer's: its file choosers open the desktop's files.
        "browser": [*BROWSER_ACTIONS, choose_file, *BROWSER_SETS["a11y"]],
    }
    spaces = {env: {a.name for a in actions} for env, actions in a11y.items()}
    spaces[ROOT] = set(RootEnvironment().action_space)
    for task in tasks:
        assert task.extra_actions == [], task.id  # the tool list never depends on the task
        for solution in (task.reference_solution, *task.alternative_solutions):
            for call in solution:
                assert call.name in spaces[call.env], (task.id, call)
        spans = [s.solution_span for s in task.metadata.subtasks]
        assert spans[0][0] == 0 and spans[-1][1] == len(task.reference_solution), task.id
        assert all(a[1] == b[0] for a, b in itertools.pairwise(spans)), task.id
        assert len(task.reference_solution) + 5 <= task.step_limit


def _memory_task(**fields: object) -> Task:
    base: dict[str, object] = {
        "id": "gate-probe",
        "instruction": 'Write "x" to a.txt on the laptop.',
        "nodes": {"a": m.file_equals("a.txt", "x").on("laptop")},
        "reference_solution": [
            ActionCall(env="laptop", name="write_file", arguments={"path": "a.txt", "content": "x"})
        ],
        "metadata": TaskMetadata(environments=["laptop"]),
    }
    return Task(**{**base, **fields})  # type: ignore[arg-type]


def test_gates_pass_a_good_task_and_name_each_kind_of_broken_one() -> None:
    envs = memory_environments()
    assert check_task(_memory_task(), envs).ok
    wrong = [
        ActionCall(env="laptop", name="write_file", arguments={"path": "a.txt", "content": "y"})
    ]
    verdict = check_task(_memory_task(reference_solution=wrong), envs)
    assert not verdict.ok and "oracle ended with false_completion" in verdict.line()
    verdict = check_task(_memory_task(alternative_solutions=[wrong]), envs)
    assert "alternative solution 0" in verdict.line()
    trivial = _memory_task(
        nodes={
            "a": m.file_exists("missing.txt").on("laptop") | ~m.file_exists("a.txt").on("laptop")
        }
    )
    verdict = check_task(trivial, envs)
    assert "null agent completed" in verdict.line()


def test_the_gates_forgive_no_invalid_reference_call_whatever_runs_forgive() -> None:
    # Runs forgive two invalid actions in a row (issue 31); a reference solution with a
    # call that cannot run as written is still a broken task.
    envs = memory_environments()
    fly = ActionCall(env="laptop", name="fly")
    write = ActionCall(env="laptop", name="write_file", arguments={"path": "a.txt", "content": "x"})
    verdict = check_task(_memory_task(reference_solution=[fly, write]), envs)
    assert not verdict.ok and "oracle ended with invalid_action" in verdict.line()


def _chain(second: object) -> Task:
    """a.txt, then b.txt, then c.txt: three subtasks of one write each, in a chain."""
    writes = [("a.txt", "x"), ("b.txt", "y"), ("c.txt", "z")]
    solution = [
        ActionCall(env="laptop", name="write_file", arguments={"path": p, "content": c})
        for p, c in writes
    ]
    nodes = {
        "s0": m.file_equals("a.txt", "x").on("laptop"),
        "s1": second,
        "s2": m.file_equals("c.txt", "z").on("laptop"),
    }
    infos = [SubtaskInfo(id=f"s{i}", nodes=[f"s{i}"], solution_span=(i, i + 1)) for i in range(3)]
    return _memory_task(
        nodes=nodes,
        edges=[("s0", "s1"), ("s1", "s2")],
        reference_solution=solution,
        metadata=TaskMetadata(environments=["laptop"], subtasks=infos, tags=["long-chain"]),
    )


def test_gates_start_a_long_chain_after_every_subtask() -> None:
    envs = memory_environments()
    good = check_task(_chain(m.file_equals("b.txt", "y").on("laptop")), envs)
    assert good.ok, good.line()
    # the oracle (which also judges the null agent, stopping one action short and every
    # start from its own trajectory) and one real start (after the middle subtask)
    assert good.episodes == 1 + 1
    # subtask 1's checkpoint already holds once subtask 0 is played: not verifiable alone
    lax = check_task(_chain(m.file_exists("a.txt").on("laptop")), envs)
    assert lax.problems == ["starting after subtask 1: ['s1'] already held before the agent acted"]


def _longer_chain(third: Evaluator) -> Task:
    """Four one-write subtasks; the third's checkpoint is ``third``."""
    writes = [("a.txt", "x"), ("b.txt", "y"), ("c.txt", "z"), ("d.txt", "w")]
    solution = [
        ActionCall(env="laptop", name="write_file", arguments={"path": p, "content": c})
        for p, c in writes
    ]
    nodes = {f"s{i}": m.file_equals(p, c).on("laptop") for i, (p, c) in enumerate(writes)}
    nodes["s2"] = third
    infos = [SubtaskInfo(id=f"s{i}", nodes=[f"s{i}"], solution_span=(i, i + 1)) for i in range(4)]
    return _memory_task(
        nodes=nodes,
        edges=[("s0", "s1"), ("s1", "s2"), ("s2", "s3")],
        reference_solution=solution,
        metadata=TaskMetadata(environments=["laptop"], subtasks=infos, tags=["long-chain"]),
    )


@pytest.mark.parametrize(
    "third",
    [
        m.file_equals("c.txt", "z").on("laptop"),  # every start is sound
        m.file_exists("a.txt").on("laptop"),  # holds after any prefix
        m.file_exists("b.txt").on("laptop"),  # holds once subtask 1 is played
    ],
    ids=["sound", "holds-from-the-start", "holds-after-subtask-1"],
)
def test_every_start_judged_from_the_oracle_is_what_a_real_start_finds(third: Evaluator) -> None:
    """Gate 6 plays one start for real and judges the others from the oracle's
    trajectory: for every k, both ways must give the same problems."""
    envs = memory_environments()
    task = _longer_chain(third)
    oracle = Episode(task, OracleAgent(observe=False), envs).run()
    assert oracle.success
    for k in range(1, 4):
        assert late_checkpoint_problems(task, oracle, k) == chain_start_problems(task, envs, k), k
    found = check_task(task, envs).problems
    judged = [p for k in range(1, 4) for p in late_checkpoint_problems(task, oracle, k)]
    assert found == judged


def test_gates_find_a_last_step_that_no_checkpoint_verifies() -> None:
    envs = memory_environments()
    two_writes = [
        ActionCall(env="laptop", name="write_file", arguments={"path": "a.txt", "content": "x"}),
        ActionCall(env="laptop", name="write_file", arguments={"path": "b.txt", "content": "y"}),
    ]
    both = m.file_equals("a.txt", "x").on("laptop") & m.file_equals("b.txt", "y").on("laptop")
    good = check_task(_memory_task(nodes={"a": both}, reference_solution=two_writes), envs)
    assert good.ok, good.line()
    lax = check_task(_memory_task(reference_solution=two_writes), envs)  # only a.txt checked
    assert "without its last action (laptop.write_file) still succeeds" in lax.line()
    # trailing waits and closing an app are passed over: the write before them is cut
    closing = [*two_writes, ActionCall(env="root", name="wait"), *CLEANUP_CALLS]
    assert truncated_reference(_memory_task(reference_solution=closing)) == two_writes[:1]
    assert truncated_reference(_memory_task(reference_solution=closing[1:])) is None


def test_composition_drops_a_kept_property_set_twice_on_one_lineage() -> None:
    from reefbench.benchmark.composed import _repeats_a_kept_property
    from reefbench.compose.synthesis import ComposedSpec

    def spec(templates: list[str], links: list[tuple[int, int]]) -> ComposedSpec:
        return ComposedSpec("x", "", "", [(t, {}) for t in templates], links, {}, "")

    chmod, rename = "desktop.make_executable", "desktop.rename_file"
    assert _repeats_a_kept_property(spec([chmod, rename, chmod], [(0, 1), (1, 2)]))
    assert not _repeats_a_kept_property(spec([chmod, rename, chmod], [(0, 1)]))  # 2 unrelated
    assert not _repeats_a_kept_property(spec([rename, rename], [(0, 1)]))  # renames may repeat


def test_suite_check_rejects_an_unknown_task_in_one_line() -> None:
    from reefbench.cli import app

    result = CliRunner().invoke(
        app, ["suite", "check", "--suite", "v0", "--tasks", "no-such-task-*"]
    )
    assert result.exit_code != 0
    assert "no task of suite v0 matches no-such-task-*" in str(result.exception or result.output)


def test_tasks_stats_describes_the_suite_as_loaded(tasks: list[Task]) -> None:
    from reefbench.cli import app

    result = CliRunner().invoke(app, ["tasks", "stats", "--suite", "v0"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"{len(tasks)} task(s) in suite v0" in out
    for title in (
        "tasks per platform",
        "checkpoints per task",
        "OS-MAP level x scope",
        "complexity levels",
        "capability test sets",
    ):
        assert title in out
    cells = {}
    for line in out.splitlines():
        parts = [p.strip() for p in line.replace("┃", "│").split("│")[1:-1]]
        if len(parts) >= 2:
            cells.setdefault(parts[0], parts[1:])
    assert cells["cross"][0] == str(sum(t.metadata.platform == "cross" for t in tasks))
    assert cells["11"][0] == str(sum(len(t.nodes) == 11 for t in tasks))
    s3 = cells["level"].index("S3")
    l4_s3 = sum((t.metadata.level, t.metadata.scope) == ("L4", "S3") for t in tasks)
    assert l4_s3 > 0 and cells["L4"][s3] == str(l4_s3)


def _write_template(template_id: str, check: Any) -> SubTask:
    return SubTask(
        id=template_id,
        description='Write "{content}" to {path}.',
        attributes={"path": "file_path", "content": "text"},
        env="laptop",
        evaluator_generator=check,
        solution_generator=lambda path, content: [
            ActionCall(
                env="laptop", name="write_file", arguments={"path": path, "content": content}
            )
        ],
        near_misses=[NearMiss("a typo in the text", changes={"content": lambda c: c + "!"})],
    )


def test_gates_play_near_misses_and_name_the_ones_the_checkpoints_accept() -> None:
    envs = memory_environments()
    strict = _write_template("mem.write", lambda path, content: m.file_equals(path, content))
    lax = _write_template("mem.lax", lambda path, content: m.file_exists(path))
    for template, ok in ((strict, True), (lax, False)):
        task = compose_task("near", [(template, {"path": "a.txt", "content": "x"})])
        task.metadata.environments = ["laptop"]
        pool = {template.id: template}
        verdict = check_task(task, envs, pool=pool, near_misses_of={template.id})
        assert verdict.ok is ok, verdict.line()
        if not ok:
            assert 'near miss of mem.lax (a typo in the text) completes ["s0.file_exists' in (
                verdict.line()
            )
        unchecked = check_task(task, envs, pool=pool)  # no template named: no near miss played
        assert unchecked.episodes == verdict.episodes - 1


def test_a_wrong_device_near_miss_is_played_on_that_device() -> None:
    """The wrong device is one the reference solution never touches: the gate still gives
    it to the near miss (an agent has every device), and a near miss whose calls fail is
    reported, since it would be refused for the wrong reason."""
    envs = memory_environments()
    strict = _write_template("mem.write", lambda path, content: m.file_equals(path, content))

    def on_the_phone(path: str, content: str) -> list[ActionCall]:
        arguments = {"path": path, "content": content}
        return [ActionCall(env="phone", name="write_file", arguments=arguments)]

    def cannot_play(path: str, content: str) -> list[ActionCall]:
        return [ActionCall(env="phone", name="fly_to", arguments={"path": path})]

    for near, problem in (
        (NearMiss("writes it on the phone", solution=on_the_phone), ""),
        (NearMiss("calls an action the phone lacks", solution=cannot_play), "could not be played"),
    ):
        template = SubTask(**{**strict.__dict__, "near_misses": [near]})
        task = compose_task("near", [(template, {"path": "a.txt", "content": "x"})])
        task.metadata.environments = ["laptop"]
        verdict = check_task(task, envs, pool={template.id: template}, near_misses_of={"mem.write"})
        if problem:
            assert (
                f"near miss of mem.write ({near.label}) {problem}: phone.fly_to" in verdict.line()
            )
        else:
            assert verdict.ok, verdict.line()  # played (else "could not be played"), refused


def test_each_template_is_near_missed_in_the_smallest_task_that_uses_it() -> None:
    def task(task_id: str, templates: list[str]) -> Task:
        infos = [
            SubtaskInfo(id=f"s{i}", template=t, nodes=[], solution_span=(0, 0))
            for i, t in enumerate(templates)
        ]
        return _memory_task(id=task_id, metadata=TaskMetadata(subtasks=infos))

    tasks = [task("big", ["a", "b", "c"]), task("small", ["b"]), task("pair", ["a", "c"])]
    assert near_miss_plan(tasks) == {"small": {"b"}, "pair": {"a", "c"}}


def test_a_near_miss_needs_a_solution_or_changes_of_known_attributes() -> None:
    base = _write_template("mem.write", lambda path, content: m.file_equals(path, content))
    for bad in (NearMiss("nothing"), NearMiss("unknown", changes={"colour": str.upper})):
        with pytest.raises(ValueError, match="near miss"):
            SubTask(**{**base.__dict__, "near_misses": [bad]})
    played = base.near_miss_calls(base.near_misses[0], {"path": "a.txt", "content": "x"})
    assert played[0].arguments == {"path": "a.txt", "content": "x!"}


def test_every_template_ships_a_near_miss_that_differs_from_its_reference() -> None:
    for template in POOL.values():
        assert template.near_misses, f"{template.id} has no near miss"
        # A template whose values come in records (one seeded sheet with its categories)
        # takes its first record.
        record = template.value_records[0] if template.value_records else {}
        values = {
            a: record[a] if a in record else template.value_pools[a][0] for a in template.attributes
        }
        reference = template.solution_generator(**values) if template.solution_generator else []
        for near in template.near_misses:
            assert template.near_miss_calls(near, values) != reference, (template.id, near.label)


def test_the_gates_near_miss_every_template_a_task_uses() -> None:
    tasks = get_suite("v0").load()
    planned = set().union(*near_miss_plan(tasks).values())
    used = {info.template for task in tasks for info in task.metadata.subtasks}
    assert planned == used
    # opening an app is never a task's work (composed.OPENS_ONLY_TEMPLATES): retired
    assert set(POOL) - used == {"phone.open_app"}


def test_resized_pictures_keep_whole_pixel_proportions() -> None:
    widths = POOL["desktop.resize_image"].value_pools["width"]
    assert all(w * 3 % 4 == 0 for w in widths), "the 400x300 source scales to whole pixels"


def test_composition_drops_a_state_set_twice_to_different_values() -> None:
    from reefbench.benchmark.composed import _sets_a_state_twice
    from reefbench.compose.synthesis import ComposedSpec

    def spec(*subtasks: tuple[str, dict[str, Any]]) -> ComposedSpec:
        return ComposedSpec("x", "", "", list(subtasks), [], {}, "")

    theme = "desktop.gtk_theme"
    assert _sets_a_state_twice(spec((theme, {"theme": "Raleigh"}), (theme, {"theme": "Emacs"})))
    assert not _sets_a_state_twice(spec((theme, {"theme": "Raleigh"})))
    on, off = "phone.turn_on", "phone.turn_off"
    assert _sets_a_state_twice(spec((on, {"setting": "Wi-Fi"}), (off, {"setting": "Wi-Fi"})))
    assert not _sets_a_state_twice(
        spec((on, {"setting": "Bluetooth"}), (off, {"setting": "Wi-Fi"}))
    )


def test_composition_drops_a_rename_beside_a_change_to_the_same_file() -> None:
    """CRAB-style DAG: an append (s2) and a rename (s3) hang off the same file in parallel
    branches; whichever runs last, the other's checkpoint cannot hold at the end."""
    from reefbench.benchmark.composed import _removes_what_a_sibling_keeps
    from reefbench.benchmark.templates import POOL
    from reefbench.compose.synthesis import ComposedSpec

    path = "~/Desktop/orchid.txt"
    subtasks = [
        ("desktop.create_file", {"path": path, "content": "alpha"}),
        ("desktop.append_line", {"path": path, "line": "beta"}),
        ("desktop.rename_file", {"path": path, "new_name": "quartz-final.txt"}),
    ]

    def task(links: list[tuple[int, int]]) -> Task:
        return ComposedSpec("x", "", "", list(subtasks), links, {}, "").build(POOL)

    assert _removes_what_a_sibling_keeps(task([(0, 1), (0, 2)]))  # append and rename in parallel
    assert not _removes_what_a_sibling_keeps(task([(0, 1), (1, 2)]))  # the rename comes last


def test_the_gates_start_with_the_costliest_task(tasks: list[Task]) -> None:
    """Two workers finish together when the long chains do not come last (suite order puts
    the longest composed tasks at the end)."""
    from reefbench.validation.gates import gate_cost

    short, long = sorted(tasks, key=lambda t: t.solution_actions)[:: len(tasks) - 1]
    assert gate_cost(long, set()) > gate_cost(short, set())
    assert gate_cost(short, {"a", "b"}) > gate_cost(short, set())


def test_alternatives_are_played_per_template_in_the_smallest_task_using_it() -> None:
    def rewrite(path: str, content: str) -> list[ActionCall]:
        call = ActionCall(env="laptop", name="write_file", arguments={"path": path, "content": ""})
        return [call, call.model_copy(update={"arguments": {"path": path, "content": content}})]

    strict = _write_template("mem.write", lambda path, content: m.file_equals(path, content))
    alternative = SubTask(**{**strict.__dict__, "alternative_generators": [rewrite]})
    other = _write_template("mem.other", lambda path, content: m.file_equals(path, content))
    pool = {alternative.id: alternative, other.id: other}
    bigger = compose_task(
        "bigger",
        [
            (alternative, {"path": "a.txt", "content": "x"}),
            (other, {"path": "b.txt", "content": "y"}),
        ],
    )
    smallest = compose_task("smallest", [(alternative, {"path": "c.txt", "content": "z"})])
    handmade_task = _memory_task(
        id="handmade", alternative_solutions=[rewrite("a.txt", "x")], metadata=TaskMetadata()
    )
    assert bigger.alternative_solutions and smallest.alternative_solutions
    plan = alternative_plan([bigger, smallest, handmade_task], pool)
    assert plan == {"smallest", "handmade"}  # the bigger task's alternative is the same
    envs = memory_environments()
    for task in (bigger, smallest):
        task.metadata.environments = ["laptop"]
    played = check_task(bigger, envs, pool=pool)
    skipped = check_task(bigger, envs, pool=pool, alternatives=False)
    assert played.ok and skipped.ok, (played.line(), skipped.line())
    assert skipped.episodes == played.episodes - 1
