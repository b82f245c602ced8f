"""reefbench: benchmark multimodal-LLM agents on real desktop, browser and phone
environments, scored by graph evaluators.

The public API is re-exported here; everything else is an implementation detail.
Optional integrations (Playwright, Ray, provider SDKs, Gymnasium) are imported lazily by
the modules that need them, so ``import reefbench`` never fails for a missing extra.
"""

from importlib import import_module
from typing import Any

from reefbench.actions.evaluators import EvalResult, Evaluator, evaluator
from reefbench.actions.sets import ACTION_SETS, DEFAULT_ACTION_SET, ActionSet, get_action_set
from reefbench.actions.spec import Action, ActionCall, action
from reefbench.environments.contract import ActionRecord, Environment
from reefbench.episodes.episode import Episode, EpisodeResult, Termination
from reefbench.episodes.protocol import Agent, AgentOutput, CallResult, PrivilegedAgent, Turn, Usage
from reefbench.errors import (
    ActionFailed,
    ConfigError,
    EnvironmentFailure,
    GraphError,
    InvalidAction,
    InvalidActionArguments,
    ReefError,
    TaskLoadError,
)
from reefbench.tasks.graph import GraphEvaluator, NodeCheck, StepReport
from reefbench.tasks.link import compose_task
from reefbench.tasks.subtask import NearMiss, SubTask, register_attribute_type
from reefbench.tasks.task import ActionStep, NearMissCase, SubtaskInfo, Task, TaskMetadata
from reefbench.tasks.taskfile import load_tasks, save_tasks

__version__ = "0.1.0"

# Exported names whose modules load on first use (PEP 562), so `import reefbench` stays
# light: running and reading runs, the suites and the device kinds are not needed to
# define tasks or agents.
_LAZY = {
    "get_suite": "reefbench.suites",
    "load_run": "reefbench.log.run",
    "make_environment": "reefbench.envs.registry",
    "RunConfig": "reefbench.runner.config",
    "run_suite": "reefbench.runner.launch",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'reefbench' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "ACTION_SETS",
    "DEFAULT_ACTION_SET",
    "Action",
    "ActionCall",
    "ActionFailed",
    "ActionRecord",
    "ActionSet",
    "ActionStep",
    "Agent",
    "AgentOutput",
    "CallResult",
    "ConfigError",
    "Environment",
    "EnvironmentFailure",
    "Episode",
    "EpisodeResult",
    "EvalResult",
    "Evaluator",
    "GraphError",
    "GraphEvaluator",
    "InvalidAction",
    "InvalidActionArguments",
    "NearMiss",
    "NearMissCase",
    "NodeCheck",
    "PrivilegedAgent",
    "ReefError",
    "RunConfig",
    "StepReport",
    "SubTask",
    "SubtaskInfo",
    "Task",
    "TaskLoadError",
    "TaskMetadata",
    "Termination",
    "Turn",
    "Usage",
    "__version__",
    "action",
    "compose_task",
    "evaluator",
    "get_action_set",
    "get_suite",
    "load_run",
    "load_tasks",
    "make_environment",
    "register_attribute_type",
    "run_suite",
    "save_tasks",
]
