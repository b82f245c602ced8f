"""One exception hierarchy for the whole framework.

Every error a *user* can cause (a bad task file, a wrong flag) is a :class:`ReefError`
whose message is one line saying what is wrong, where, and how to fix it; the CLI prints
that line and exits with code 2 instead of a traceback. Errors an *agent* can cause are
:class:`InvalidAction` (the call was not acceptable) or :class:`ActionFailed` (the call was
acceptable but did not work, e.g. the file it names does not exist); the episode feeds both
back to the agent and never confuses them with infrastructure failures.
"""

from __future__ import annotations


class ReefError(Exception):
    """Base class of every error reefbench raises on purpose."""


class ConfigError(ReefError):
    """A task file, subtask template, pool or run configuration is invalid."""


class WrongEnvironment(ConfigError):
    """An action or evaluator ran in an environment of another type than its ``env``
    parameter's annotation: the task routes it to the wrong device."""


class TaskLoadError(ConfigError):
    """A task file could not be loaded; the message names the file and the JSON path."""


class GraphError(ConfigError):
    """An evaluator graph is unusable: empty, cyclic, or with unknown nodes."""


class InvalidAction(ReefError):
    """An agent asked for something the action space does not allow.

    Unknown action, action of another environment, arguments that do not validate, a
    Set-of-Marks id that is not on screen. Counts towards the ``invalid_action`` tolerance.
    """


class InvalidActionArguments(InvalidAction):
    """Arguments of an action call do not match its schema.

    ``parameter`` names the offending parameter (``None`` when the problem is not tied to
    one parameter, e.g. an unexpected extra argument list).
    """

    def __init__(self, action: str, parameter: str | None, problem: str) -> None:
        self.action = action
        self.parameter = parameter
        self.problem = problem
        where = f"parameter {parameter!r}" if parameter else "arguments"  # repr: one line
        super().__init__(f"{action}: {where}: {problem}")


class ActionFailed(ReefError):
    """A valid action ran and failed in an expected way (its message is shown to the agent)."""


class EnvironmentFailure(ReefError):
    """An environment broke (crashed process, failed health check): infrastructure, not agent."""
