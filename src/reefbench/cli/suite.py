"""``reef suite check`` and ``reef suite freeze``: validate and freeze built-in suites.

``reef suite check`` runs the validation gates (reference and alternative solutions
succeed, the null agent completes nothing, checkpoints are deterministic, near misses fail;
and the static ones: instructions pass the consistency validator and the lint, solutions
use the devices and apps the instruction names) and prints one line per failing task.
``--static`` runs only the static gates: no environments, seconds for the whole suite.
``reef suite freeze`` regenerates a frozen suite's data files (reef-v1's ``tasks.jsonl``
and ``manifest.json``) from the templates and handmade definitions.

Both work for any suite of :data:`reefbench.suites.RELEASES`: the gates read the suite's
own pool (near misses, lint), and freezing needs the suite to have frozen data.
"""

from __future__ import annotations

import fnmatch
import time
from typing import Annotated, Any

import typer

from reefbench.cli.app import app, console
from reefbench.errors import ConfigError, ReefError

suite_app = typer.Typer(help="Validate built-in suites.", no_args_is_help=True)
app.add_typer(suite_app, name="suite")


@suite_app.command("check")
def suite_check(
    suite: Annotated[str, typer.Option(help="Built-in suite.")] = "v1",
    tasks: Annotated[
        list[str] | None, typer.Option(help="Task id or glob (repeatable; default all).")
    ] = None,
    workers: Annotated[int, typer.Option(help="Tasks checked at the same time.")] = 2,
    ray: Annotated[
        str | None,
        typer.Option(help="Check on a Ray cluster, a worker per CPU ('local' starts one)."),
    ] = None,
    static: Annotated[
        bool,
        typer.Option(
            "--static",
            help="Only the static gates (instruction consistency and lint, devices and apps).",
        ),
    ] = False,
    action_set: Annotated[
        str,
        typer.Option(
            help="Play every gate's episodes under this action set (pixels: the stored "
            "solutions through coordinates only)."
        ),
    ] = "marks",
    every_alternative: Annotated[
        bool,
        typer.Option(
            "--every-alternative",
            help="Play every task's alternative solutions (default: each template's, in "
            "the smallest task that uses it, as near misses are played).",
        ),
    ] = False,
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="Write the gate record (gates.json: every task's verdict, the data's hash, "
            "the code version) beside a frozen suite's data.",
        ),
    ] = False,
) -> None:
    """Run the validation gates; print a verdict per failing task (exit 1 if any fails)."""
    from reefbench.actions.sets import get_action_set

    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {workers}")
    if record and (tasks or static):
        raise ConfigError(
            "--record vouches for every task of the suite, played: drop --tasks and --static"
        )
    get_action_set(action_set)  # one line naming the known sets, before anything loads
    chosen, picked = _tasks_to_check(suite, tasks)
    if record and chosen.frozen is None:
        raise ConfigError(
            f"suite {suite} has no frozen data to record the gates beside; freeze it first "
            "(a row in reefbench.suites.RELEASES with frozen data)"
        )
    pool = dict(chosen.pool()) if chosen.pool is not None else None
    failed = _print_pool_lint(pool, suite)
    known = chosen.frozen.known_faults if chosen.frozen is not None else {}
    for task_id, fault in known.items():
        console.print(f"[yellow]known fault[/] {task_id}: {fault}", highlight=False)
    started = time.perf_counter()
    # the code that judges is the code loaded now, not what the checkout holds at the end
    judged_by = _code_version() if record else ""
    if static:
        if pool is None:
            raise ConfigError(f"suite {suite} has no static gates (they read a subtask pool)")
        failed += _check_statically(picked, pool, known, started)
    else:
        verdicts = _check_by_playing(
            chosen,
            picked,
            pool,
            known,
            workers=workers,
            action_set=action_set,
            every_alternative=every_alternative,
            started=started,
            ray=ray,
        )
        failed += sum(not v.ok for v in verdicts)
        if record:
            _write_record(chosen.frozen, verdicts, action_set, judged_by)
    if failed:
        raise typer.Exit(1)


def _tasks_to_check(suite: str, tasks: list[str] | None) -> tuple[Any, list[Any]]:
    """The suite and its tasks that match the ``--tasks`` globs (all without any); globs
    that match nothing fail in one line rather than check nothing."""
    from reefbench.suites import get_suite

    chosen = get_suite(suite)
    everything = chosen.load()
    picked = [
        t for t in everything if not tasks or any(fnmatch.fnmatchcase(t.id, p) for p in tasks)
    ]
    if not picked:
        raise ReefError(f"no task of suite {suite} matches {', '.join(tasks or [])}")
    return chosen, picked


def _print_pool_lint(pool: dict[str, Any] | None, suite: str) -> int:
    """Print the lint of the suite's subtask pool (none without a pool); the number of
    errors, each of which fails the check (warnings are only printed)."""
    from reefbench.compose.lint import lint_pool

    errors = 0
    if pool is not None:
        for problem in lint_pool(pool, f"{suite} pool"):
            console.print(f"[red]lint[/] {problem}", highlight=False)
            errors += problem.severity == "error"
    return errors


def _check_statically(
    picked: list[Any], pool: dict[str, Any], known: dict[str, str], started: float
) -> int:
    """``--static``: the gates that need no environment, per task; prints each failing
    task and the tally, and returns the number of failing tasks."""
    from reefbench.validation.gates import static_problems

    bad = 0
    for task in picked:
        found = static_problems(task, pool, known)
        if found:
            bad += 1
            console.print(f"[red]FAIL[/] {task.id}: {'; '.join(found)}", highlight=False)
    console.print(
        f"{len(picked) - bad} of {len(picked)} tasks pass the static gates "
        f"({time.perf_counter() - started:.1f} s)"
    )
    return bad


def _check_by_playing(
    chosen: Any,
    picked: list[Any],
    pool: dict[str, Any] | None,
    known: dict[str, str],
    *,
    workers: int,
    action_set: str,
    every_alternative: bool,
    started: float,
    ray: str | None = None,
) -> list[Any]:
    """Every gate, episodes played in the suite's environments; prints each failing
    verdict as it comes and the tally, and returns the verdicts."""
    from reefbench.validation.distributed import on_ray
    from reefbench.validation.gates import run_gates

    def show(verdict: object) -> None:
        if not verdict.ok:  # type: ignore[attr-defined]
            console.print(f"[red]FAIL[/] {verdict.line()}", highlight=False)  # type: ignore[attr-defined]
        elif verdict.retried:  # type: ignore[attr-defined]
            again = ", ".join(verdict.retried)  # type: ignore[attr-defined]
            console.print(
                f"[yellow]RETRIED[/] {verdict.task_id}: {again} passed on the second try "  # type: ignore[attr-defined]
                "(a GUI step raced the app: worth a look)",
                highlight=False,
            )

    from reefbench.cli.stopping import stopped_cleanly

    with stopped_cleanly():  # SIGTERM as Ctrl+C; no gate's desktop outlives the command
        verdicts = run_gates(
            picked,
            chosen.make_environments,
            pool=pool,
            workers=workers,
            on_verdict=show,
            action_set=action_set,
            every_alternative=every_alternative,
            known_faults=known,
            elsewhere=None if ray is None else on_ray(ray, chosen.make_environments, action_set),
        )
    failing = sum(not v.ok for v in verdicts)
    seconds = time.perf_counter() - started
    episodes = sum(v.episodes for v in verdicts)
    nodes = {v.node for v in verdicts if v.node}
    where = f" on {len(nodes)} Ray node{'s' if len(nodes) != 1 else ''}" if ray else ""
    console.print(
        f"{len(verdicts) - failing} of {len(verdicts)} tasks pass "
        f"the gates ({episodes} episodes, {seconds:.0f} s, {workers} worker(s){where}, "
        f"{action_set} actions)"
    )
    return verdicts


def _write_record(
    frozen: Any, verdicts: list[Any], action_set: str, code_version: str = ""
) -> None:
    """Write the gate record beside ``frozen``'s data and say where (``code_version``: the
    code that played the gates, taken as they started; now when not given)."""
    import datetime as dt

    from reefbench.plumbing.userfiles import read_text
    from reefbench.suites.frozen import TASKS_FILE, content_hash
    from reefbench.suites.gate_record import GateRecord, TaskGates, write_record

    entry = GateRecord(
        suite=frozen.name,
        version=frozen.version,
        data_sha256=content_hash(read_text(frozen.directory / TASKS_FILE)),
        code_version=code_version or _code_version(),
        action_set=action_set,
        checked_on=dt.datetime.now(dt.UTC).date(),
        tasks={
            v.task_id: TaskGates(
                ok=v.ok, problems=v.problems, episodes=v.episodes, retried=v.retried
            )
            for v in verdicts
        },
    )
    console.print(f"gate record written: {write_record(frozen, entry)}", highlight=False)


def _code_version() -> str:
    """reefbench's version, and the commit when run from a git checkout (``0.1.0+g3aeb15e``;
    ``+dirty`` when files differ from it)."""
    import subprocess
    from pathlib import Path

    import reefbench

    version = reefbench.__version__
    here = Path(reefbench.__file__).parent
    try:
        commit = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no", "."],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return version
    return f"{version}+g{commit}" + ("+dirty" if dirty else "")


@suite_app.command("freeze")
def suite_freeze(
    name: Annotated[str, typer.Argument(help="Frozen suite to regenerate.")] = "v1",
    check: Annotated[
        bool, typer.Option(help="Only compare with the shipped files; exit 1 if stale.")
    ] = False,
) -> None:
    """Regenerate a frozen suite's data files from its templates and handmade tasks."""
    from reefbench.suites import get_suite
    from reefbench.suites.frozen import write

    chosen = get_suite(name)
    if chosen.frozen is None:
        raise ConfigError(f"suite '{chosen.name}' is synthesised when it loads, not frozen")
    spec = chosen.frozen
    if spec.published:
        if not check:
            spec.refuse_if_published()
        from reefbench.suites.frozen import load

        tasks = load(spec.directory)  # checks the bytes against the manifest's hash
        console.print(
            f"{spec.directory}: {spec.name} {spec.version} is published; its "
            f"{len(tasks)} tasks match their manifest (the data is not rebuilt from the "
            "source)",
            highlight=False,
        )
        return
    started = time.perf_counter()
    files = spec.render()
    seconds = time.perf_counter() - started
    where = spec.directory
    if check:
        problem = spec.staleness(files)
        if problem:
            console.print(f"[red]stale[/] {problem}", highlight=False)
            raise typer.Exit(1)
        console.print(f"{where}: up to date ({seconds:.1f} s)", highlight=False)
        return
    changed = write(files, where)
    manifest = files.manifest
    size = len(files.tasks.encode("utf-8"))
    console.print(
        f"{spec.name} {spec.version}: {manifest.count} tasks, {size / 1000:.0f} kB, "
        f"sha256 {manifest.sha256[:16]}… -> {where} "
        f"({', '.join(changed) + ' written' if changed else 'unchanged'}; {seconds:.1f} s)",
        highlight=False,
    )
