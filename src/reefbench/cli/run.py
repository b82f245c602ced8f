"""``reef run``: run a suite with a built-in agent or a model; store, report, resume.

``--agent`` picks a built-in agent (:data:`reefbench.runner.agents.BUILTINS`); ``--model``
points an agent system (``--policy``) at a model, e.g. ``--model openai/gpt-4o`` or
``--model openai-compatible/qwen2.5-vl@http://127.0.0.1:8000/v1``. A run can also be
described by a TOML/YAML/JSON file (``--config``); flags given as well override it.
``--grounding NAME`` plays the model as an open grounding model (UI-TARS, Qwen-VL: one
screenshot in, coordinates out; :mod:`reefbench.agents.grounding_models`).
``--action-set`` picks how agents address devices (``marks``, the default, ``a11y`` or
``pixels``); it is part of the configuration, so ``run.json`` and the report record it.
Results go to a run directory (``--out``); ``--resume`` continues a run that was stopped.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from reefbench.agents.grounding_models.profiles import profiles_help
from reefbench.agents.providers.registry import model_help
from reefbench.cli.app import app, console
from reefbench.errors import ReefError
from reefbench.runner.agents import builtin_help


@app.command()
def run(
    suite: Annotated[
        str | None, typer.Option(help="Built-in suite: v1 (default; frozen data), v0 or memory.")
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option(help=builtin_help()),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(help=model_help()),
    ] = None,
    policy: Annotated[
        str | None, typer.Option(help="Agent system for --model: single, by-func, by-env.")
    ] = None,
    grounding: Annotated[
        str | None,
        typer.Option(
            help="Play --model as an open grounding model (screenshot in, coordinates out) "
            f"in its own output format: {profiles_help()}."
        ),
    ] = None,
    tool_mode: Annotated[
        str | None,
        typer.Option(
            help="native tool calls, json in text, or auto (json for openai-compatible servers)."
        ),
    ] = None,
    history: Annotated[
        int | None,
        typer.Option(
            help="Earlier turns per request (default: the whole episode, compactly, with "
            "the 3 newest screenshots)."
        ),
    ] = None,
    max_tokens: Annotated[int | None, typer.Option(help="Completion tokens per request.")] = None,
    timeout: Annotated[float | None, typer.Option(help="Seconds per model request.")] = None,
    retries: Annotated[
        int | None, typer.Option(help="Attempts per request on 429/5xx/timeouts.")
    ] = None,
    retry_base: Annotated[
        float | None, typer.Option(help="Seconds of the first backoff; doubles per attempt.")
    ] = None,
    max_image_side: Annotated[
        int | None, typer.Option(help="Downscale screenshots to this longer side (pixels).")
    ] = None,
    prompts: Annotated[
        Path | None, typer.Option(help="Directory of prompt templates overriding the defaults.")
    ] = None,
    seed: Annotated[
        list[int] | None, typer.Option(help="Seed (repeatable: one episode per task and seed).")
    ] = None,
    replay: Annotated[
        Path | None, typer.Option(help="Run directory to replay with --agent replay.")
    ] = None,
    task: Annotated[
        list[str] | None, typer.Option(help="Task id or glob (repeatable; default all).")
    ] = None,
    tier: Annotated[
        list[str] | None,
        typer.Option(help="Only tasks of this tier: easy, medium or hard (repeatable)."),
    ] = None,
    family: Annotated[
        list[str] | None,
        typer.Option(help="Only tasks of this family, e.g. office (repeatable; reef-v2)."),
    ] = None,
    start_at: Annotated[
        list[int] | None,
        typer.Option(help="SR@k: also start after the first k subtasks (repeatable)."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(help="Concurrent episodes on this machine (default: cores, at most 4)."),
    ] = None,
    ray: Annotated[
        str | None, typer.Option(help="Distribute over a Ray cluster ('local' starts one).")
    ] = None,
    invalid_tolerance: Annotated[
        int | None,
        typer.Option(
            help="Invalid actions in a row forgiven: the next one in a row ends the "
            "episode (default 2, so the third; WebArena's rule). Invalid is only what "
            "cannot run as written (unknown tool, arguments outside the schema, an element "
            "number not in the observation); a refused or failed action is a step. 0: the "
            "first invalid action ends it (CRAB)."
        ),
    ] = None,
    side_effects: Annotated[
        str | None,
        typer.Option(
            help="Changes beyond what a task may change: 'fail' the episode (default), "
            "only 'report' them, or 'off'."
        ),
    ] = None,
    step_limit: Annotated[
        int | None,
        typer.Option(help="Override every task's step limit (the agent is told it)."),
    ] = None,
    max_infra_retries: Annotated[
        int | None, typer.Option(help="Retries of an episode after an infrastructure failure.")
    ] = None,
    action_set: Annotated[
        str | None,
        typer.Option(
            help="How agents address devices: marks (element numbers and coordinates, the "
            "default), a11y (adds click_on/tap_on by accessible name) or pixels "
            "(coordinates only, plain screenshots)."
        ),
    ] = None,
    observation_policy: Annotated[
        str | None,
        typer.Option(
            "--observation-policy",
            "--observe",
            help="Which devices' observations a model agent's request carries: changed "
            "(default: the devices acted on or changed since last sent, a note for the "
            "others), latest (every device, each once per request) or all (every device "
            "every step, screenshots kept in the history).",
        ),
    ] = None,
    computer_use: Annotated[
        str | None,
        typer.Option(
            help="Play --model through its provider's native computer-use interface: auto "
            "(default: with --action-set pixels or a computer-use model), on, or off."
        ),
    ] = None,
    computer_tool: Annotated[
        str | None,
        typer.Option(
            help="Anthropic's computer tool version for native computer use: "
            "computer_20250124 (default) or computer_20251124 (newer models)."
        ),
    ] = None,
    safety_checks: Annotated[
        str | None,
        typer.Option(
            help="Native computer use: acknowledge the provider's pending safety checks "
            "(default; each is recorded in the trajectory) or refuse them (the action does "
            "not run and counts as invalid)."
        ),
    ] = None,
    judge: Annotated[
        str | None,
        typer.Option(
            help="Model (provider/model) grading free-text answers (default: their rubric)."
        ),
    ] = None,
    config: Annotated[
        Path | None, typer.Option(help="Run configuration file (.toml, .yaml or .json).")
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Run directory (default runs/<time>).")] = None,
    resume: Annotated[
        bool, typer.Option(help="Continue the run in --out where it stopped.")
    ] = False,
    report: Annotated[bool, typer.Option(help="Write the HTML report at the end.")] = True,
) -> None:
    """Run a suite with an agent, store every episode, print the metrics and write a report."""
    # The signature is a flat declaration of the options; the body only sorts them into
    # a configuration (_config_to_resume, _config_from_flags), checks it and runs it.
    if resume:
        out, chosen = _config_to_resume(out, workers, ray)
    else:
        chosen = _config_from_flags(
            config,
            run={
                "suite": suite,
                "tasks": task,
                "tiers": tier,
                "families": family,
                "seeds": seed,
                "start_at": start_at,
                "workers": workers,
                "ray_address": ray,
                "invalid_tolerance": invalid_tolerance,
                "side_effects": side_effects,
                "step_limit": step_limit,
                "max_infra_retries": max_infra_retries,
                "action_set": action_set,
                "observation_policy": observation_policy,
                "judge": judge,
            },
            agent={"name": agent, "model": model, "policy": policy},
            options={
                "tool_mode": tool_mode,
                "grounding": grounding,
                "history": history,
                "max_tokens": max_tokens,
                "timeout": timeout,
                "retries": retries,
                "retry_base": retry_base,
                "max_image_side": max_image_side,
                "prompts": str(prompts) if prompts else None,
                "replay": str(replay) if replay else None,
                "computer_use": computer_use,
                "safety_checks": safety_checks,
                "computer_tool": computer_tool,
            },
        )
        if agent is not None and model is not None:
            raise ReefError(
                "--agent and --model exclude each other: pick a built-in agent or a model"
            )
        out = _new_run_directory(out)
    _check_before_running(chosen)
    _execute(chosen, out, report)


def _config_to_resume(out: Path | None, workers: int | None, ray: str | None) -> tuple[Path, Any]:
    """``--resume``: the run directory and the configuration its run was started with;
    only ``--workers`` and ``--ray`` may change (they do not change results)."""
    from reefbench.log.manifest import is_run

    if out is None or not is_run(out):
        raise ReefError("--resume needs --out pointing at an existing run directory")
    chosen = _resumed_config(out)
    if workers is not None or ray is not None:
        chosen = chosen.model_copy(update=_drop_none({"workers": workers, "ray_address": ray}))
    return out, chosen


def _config_from_flags(
    config: Path | None,
    *,
    run: dict[str, Any],
    agent: dict[str, Any],
    options: dict[str, Any],
) -> Any:
    """A new run's configuration: the ``--config`` file (or the defaults) with the flags
    given on top (``run``: RunConfig fields; ``agent``: the agent spec; ``options``: the
    agent's options; ``None`` values are flags not given)."""
    from reefbench.runner.config import RunConfig, load_config

    base = load_config(config) if config else RunConfig()
    return _merge(base, run=run, agent=agent, options=options)


def _new_run_directory(out: Path | None) -> Path:
    """Where a new run goes: ``--out``, or ``runs/<UTC time>``; a directory that holds a
    run already is refused (``--resume`` continues one), so no run is overwritten."""
    from reefbench.log.manifest import is_run

    out = out or Path("runs") / datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    if is_run(out):
        raise ReefError(f"{out} already holds a run: pass --resume to continue it, or a new --out")
    return out


def _check_before_running(chosen: Any) -> None:
    """Fail now, in one line, for what would otherwise fail inside the first episode: the
    agent spec, the judge model (a bad model string or a missing key), the packages trusted
    to define actions."""
    from reefbench.actions.refs import allow_action_modules
    from reefbench.runner.agents import check_spec, judge_from_spec

    check_spec(chosen.agent)
    judge_from_spec(chosen.judge)
    allow_action_modules(chosen.action_modules)


def _resumed_config(out: Path) -> Any:
    """The configuration the stopped run in ``out`` was started with (its manifest)."""
    from reefbench.errors import ConfigError
    from reefbench.log.manifest import manifest_path, read_run_manifest
    from reefbench.runner.launch import config_of

    try:
        manifest = read_run_manifest(out)
    except ConfigError as exc:
        raise ReefError(f"{exc}; this directory cannot be resumed (start a new --out)") from None
    return config_of(manifest, manifest_path(out))


def _drop_none(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _merge(
    base: Any, *, run: dict[str, Any], agent: dict[str, Any], options: dict[str, Any]
) -> Any:
    """Flags given on the command line override the configuration file."""
    import pydantic

    from reefbench.plumbing.userfiles import first_validation_error
    from reefbench.runner.config import RunConfig

    # Only what the file set: a default carried over would read as chosen (an action set
    # the file never named would keep a computer-use model off its own default, pixels).
    data = base.model_dump(exclude_unset=True)
    data.update(_drop_none(run))
    given_agent = _drop_none(agent)
    chosen = data.get("agent", {})
    if "model" in given_agent:
        chosen = {"name": "model"}
    elif "name" in given_agent:
        chosen = {"name": given_agent["name"]}
    chosen = {**chosen, **given_agent}
    chosen["options"] = {**chosen.get("options", {}), **_drop_none(options)}
    data["agent"] = chosen
    try:
        return RunConfig.model_validate(data)
    except pydantic.ValidationError as exc:
        raise ReefError(f"run configuration: {first_validation_error(exc)}") from None


def _execute(config: Any, out: Path, write_report: bool) -> None:
    from reefbench.episodes.metrics import summarize
    from reefbench.report import summary_table
    from reefbench.runner.agents import agent_from_spec, describe
    from reefbench.runner.launch import launch, select_run
    from reefbench.runner.progress import LiveProgress

    # The observation policy shapes only what a model is sent.
    observed = f", {config.observation_policy} observations" if config.agent.model else ""
    label = f"{describe(config.agent)} on {config.suite} ({config.action_set} actions{observed})"
    selection = select_run(config)  # once per run; a typo fails before anything is written
    console.print(f"run directory: {out}", highlight=False)
    shown = 0

    with LiveProgress(console, total=0, label=label) as live:

        def on_progress(progress: Any) -> None:
            nonlocal shown
            live.update(progress)
            for r in progress.results[shown:]:
                mark = "[green]✓[/]" if r.success else "[red]✗[/]"
                detail = f"  {r.error}" if r.infrastructure_failure and r.error else ""
                console.print(
                    f"{mark} {r.task_id:<28} {r.termination:<17} "
                    f"CR={r.completion_ratio:.2f} actions={r.actions}{detail}",
                    highlight=False,
                )
            shown = len(progress.results)

        from reefbench.cli.stopping import stopped_cleanly

        try:
            with stopped_cleanly():  # SIGTERM as Ctrl+C; nothing started outlives the run
                launch(
                    config,
                    out,
                    lambda key: agent_from_spec(config.agent, key, config),
                    selection=selection,
                    on_progress=on_progress,
                    on_plan=live.set_total,
                )
        except KeyboardInterrupt:
            console.print(
                f"[yellow]stopped[/]: finished episodes are stored, unfinished ones marked "
                f"aborted; continue with reef run --resume --out {out}",
                highlight=False,
            )
            raise typer.Exit(130) from None

    from reefbench.report.loading import load_run

    loaded = load_run(out)
    summary = summarize(loaded.results, loaded.tasks)  # what the run ran
    console.print(summary_table({label: summary}, title="reefbench results"))
    if write_report:
        from reefbench.report.html import write_report as write

        console.print(f"report: {write([loaded], out / 'report')}", highlight=False)
