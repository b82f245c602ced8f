"""Evaluators: actions that read real state and say whether a checkpoint holds.

An evaluator returns ``bool`` or an :class:`EvalResult` (OmniBench's evaluation functions
report partial progress and a message; CRAB's return a bare bool). Evaluators combine with
``&``, ``|`` and ``~`` into new evaluators whose labels stay readable in reports.

Every evaluator is one of two kinds, declared where it is defined, never guessed:

* a **state** checkpoint (the default) reads something that stays true once made true: a
  file, a setting, an account row. The graph evaluator checks it again when the episode
  ends, so a state made right and then undone does not count. It names the pieces of world
  state it reads as *state keys* computed from its arguments (``governs``, e.g.
  ``file:/home/user/notes.txt``): a later step of the task that governs an overlapping key
  may change that state legitimately (a rename after a write), and then that step's own
  end check covers it instead.
* a **moment** (``moment=True``) observes something that is only true for a while (what
  the screen shows, which window is focused, which process runs) or what the agent did
  (the trajectory). It is credited when it passes and not checked again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, overload

from pydantic import BaseModel, ConfigDict, Field

from reefbench.actions.spec import Action, FuncT
from reefbench.errors import ConfigError


class EvalResult(BaseModel):
    """Outcome of one evaluator check.

    Attributes:
        success: Whether the checkpoint holds.
        message: Why, in words a person reading a report understands.
        progress: Partial progress in [0, 1] (OmniBench); ``None`` means all-or-nothing.
    """

    model_config = ConfigDict(frozen=True)

    success: bool
    message: str = ""
    progress: float | None = Field(default=None, ge=0.0, le=1.0)

    @property
    def fraction(self) -> float:
        """Progress if reported, else 1.0 for success and 0.0 for failure."""
        if self.progress is not None:
            return self.progress
        return 1.0 if self.success else 0.0


_TRUE = EvalResult(success=True)
_FALSE = EvalResult(success=False)


def as_result(value: Any, source: Action) -> EvalResult:
    """Normalise an evaluator's return value; anything but bool/EvalResult is a bug in it."""
    if value is True:
        return _TRUE
    if value is False:
        return _FALSE
    if isinstance(value, EvalResult):
        return value
    raise TypeError(
        f"evaluator {source.label} returned {type(value).__name__}; return bool or EvalResult"
    )


EndState = Callable[..., "Evaluator"]
"""Called once when a node completes, with the evaluator's arguments and ``env``: returns
the check of the state to hold at the end, when it is not the evaluator itself (a copy is
compared with the source as it was then, e.g. ``file_equals(copy, <source's content>)``,
since an independent step may legitimately change the source afterwards)."""

StateKeys = Callable[..., Iterable[str]]
"""Computes the state keys an evaluator reads from its arguments (all of them, defaults
included, as keywords; ``env`` is not passed). A named function in the module that defines
the evaluator, e.g. ``def _file_keys(path: str, **_: Any) -> list[str]``."""


def keys_overlap(first: str, second: str) -> bool:
    """Two state keys name overlapping state: equal, or one is a ``/``-prefix of the other
    (a folder and a file inside it, a table and one of its rows)."""
    if first == second:
        return True
    short, long = sorted((first, second), key=len)
    return long.startswith(short) and (short.endswith("/") or long[len(short)] == "/")


class Evaluator(Action):
    """An action that checks state and returns ``bool`` or :class:`EvalResult`.

    Attributes:
        moment: An observation or trajectory check (true at a moment); it is not checked
            again at the end. Everything else is a state checkpoint, re-checked at the end.
        governs: Computes the state keys the checkpoint reads from its arguments (a state
            checkpoint without it governs no named state: it is always re-checked and
            never superseded).
    """

    def __init__(
        self,
        func: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        env_name: str | None = None,
        moment: bool = False,
        governs: StateKeys | None = None,
        end_state: EndState | None = None,
    ) -> None:
        super().__init__(func, name=name, description=description, env_name=env_name)
        if moment and (governs is not None or end_state is not None):
            raise ConfigError(
                f"evaluator {self.name}: a moment governs no state; drop governs and end_state"
            )
        self.moment = moment
        self.governs = governs
        self.end_state = end_state

    @property
    def persistent(self) -> bool:
        """The checked state must still hold when the episode ends (every state checkpoint)."""
        return not self.moment

    def state_keys(self) -> frozenset[str]:
        """The state this checkpoint reads, as keys scoped by its environment
        (``desktop|file:/home/user/a.txt``) unless a key names its own scope
        (``account|contacts:ada``); empty for moments and undeclared state."""
        if self.governs is None:
            return frozenset()
        values = self.validate({})
        arguments = {k: v for k, v in values.items() if k != "env"}
        scope = f"{self.env_name}|" if self.env_name else ""
        # A key naming its own scope ("account|contacts:ada") is state shared by several
        # environments (the phone and the browser reach one account).
        return frozenset(key if "|" in key else scope + key for key in self.governs(**arguments))

    def end_check(self) -> Evaluator | None:
        """What to check when the episode ends: the evaluator itself for state, ``None``
        for a moment."""
        return None if self.moment else self

    @property
    def fixes_end_state(self) -> bool:
        """Its end check is fixed when the node completes (see :data:`EndState`)."""
        return self.end_state is not None

    def completed_end_check(self, envs: Mapping[str, Any]) -> Evaluator | None:
        """The end check fixed when the node completes: ``end_state``'s evaluator (routed
        like this one), else :meth:`end_check`."""
        if self.end_state is None:
            return self.end_check()
        env = self.pick_env(envs)
        fix = getattr(env, "fix_end_state", None)
        # An Environment fixes it where its state lives (a remote one on its server).
        check = fix(self) if fix is not None and hasattr(env, "action_space") else None
        if check is None:
            check = self.fixed_end_state(env)
        if self.env_name is not None and check.env_name is None:
            check = check.on(self.env_name)
        return check

    def fixed_end_state(self, env: Any) -> Evaluator:
        """Run the ``end_state`` hook against ``env`` (see :data:`EndState`)."""
        if self.end_state is None:
            return self
        values = {k: v for k, v in self.validate({}).items() if k != "env"}
        return self.end_state(env=env, **values)

    def evaluate(self, env: Any = None, **kwargs: Any) -> EvalResult:
        """Run the check in ``env`` and normalise its result."""
        return as_result(self.run(env, **kwargs), self)

    def check(self, envs: Mapping[str, Any]) -> EvalResult:
        """Run the check in the environment it is routed to, picked from ``envs``.

        An :class:`~reefbench.environments.contract.Environment` evaluates it (a remote one on its
        server); any other object is passed to the function directly.
        """
        env = self.pick_env(envs)
        evaluate = getattr(env, "evaluate", None)
        if evaluate is not None and hasattr(env, "action_space"):
            result: EvalResult = evaluate(self)
            return result
        return self.evaluate(env)

    def pick_env(self, envs: Mapping[str, Any]) -> Any:
        """The environment this evaluator reads: its ``env_name``, or the only one there is."""
        if not self.needs_env:
            return None
        if self.env_name is not None:
            try:
                return envs[self.env_name]
            except KeyError:
                raise ConfigError(
                    f"evaluator {self.label} reads environment '{self.env_name}', which this "
                    f"task does not have (it has: {', '.join(sorted(envs)) or 'none'})"
                ) from None
        if len(envs) == 1:
            return next(iter(envs.values()))
        raise ConfigError(
            f"evaluator {self.label} needs an environment but names none and the task has "
            f"{len(envs)}; route it with .on('<env name>') or @evaluator(env=...)"
        )

    def __and__(self, other: Evaluator) -> Evaluator:
        return _Combined("and", (self, other))

    def __or__(self, other: Evaluator) -> Evaluator:
        return _Combined("or", (self, other))

    def __invert__(self) -> Evaluator:
        return _Combined("not", (self,))


class _Combined(Evaluator):
    """``a & b``, ``a | b`` or ``~a``: each part still reads its own environment."""

    def __init__(self, op: str, parts: tuple[Evaluator, ...]) -> None:
        for part in parts:
            if not isinstance(part, Evaluator):
                raise ConfigError(f"cannot combine an evaluator with {part!r}")
        self.op = op
        self.parts = parts
        self.name = f"{op}_" + "_".join(p.name for p in parts)
        self.description = f"{op} of: " + "; ".join(p.label for p in parts)
        self.env_name = None
        self.bound = {}
        self.needs_env = any(p.needs_env for p in parts)
        # "a and b" is a moment only when both are; its end check keeps the state parts.
        # "a or b" and "not a" with a moment inside cannot be re-judged from state alone.
        if op == "and":
            self.moment = all(p.moment for p in parts)
        else:
            self.moment = any(p.moment for p in parts)
        self.governs = None
        self.end_state = None

    def state_keys(self) -> frozenset[str]:
        return frozenset().union(*(p.state_keys() for p in self.parts))

    @property
    def fixes_end_state(self) -> bool:
        return any(p.fixes_end_state for p in self.parts)

    def completed_end_check(self, envs: Mapping[str, Any]) -> Evaluator | None:
        if self.moment:
            return None
        if self.op != "and":
            return self
        kept = [c for c in (p.completed_end_check(envs) for p in self.parts) if c is not None]
        return kept[0] if len(kept) == 1 else _Combined("and", tuple(kept))

    def end_check(self) -> Evaluator | None:
        if self.moment:
            return None
        if self.op != "and":
            return self
        kept = [c for c in (p.end_check() for p in self.parts) if c is not None]
        return kept[0] if len(kept) == 1 else _Combined("and", tuple(kept))

    @property
    def label(self) -> str:
        if self.op == "not":
            return f"~{self.parts[0].label}"
        symbol = " & " if self.op == "and" else " | "
        return "(" + symbol.join(p.label for p in self.parts) + ")"

    @property
    def parameters_schema(self) -> dict[str, Any]:
        return {"type": "object", "properties": {}, "additionalProperties": False}

    def on(self, env_name: str) -> _Combined:
        """Route every part that has no environment of its own to ``env_name``."""
        return _Combined(self.op, tuple(p if p.env_name else p.on(env_name) for p in self.parts))

    def __call__(self, *args: Any, **kwargs: Any) -> _Combined:
        raise ConfigError(f"combined evaluator {self.label} takes no arguments; bind its parts")

    def run(self, env: Any = None, **kwargs: Any) -> EvalResult:
        return self._combine([p.evaluate(env) for p in self.parts])

    def check(self, envs: Mapping[str, Any]) -> EvalResult:
        return self._combine([p.check(envs) for p in self.parts])

    def _combine(self, results: list[EvalResult]) -> EvalResult:
        if self.op == "not":
            ok = not results[0].success
            return EvalResult(success=ok, message=f"not ({results[0].message})".strip())
        ok = (
            all(r.success for r in results) if self.op == "and" else any(r.success for r in results)
        )
        fractions = [r.fraction for r in results]
        progress = sum(fractions) / len(fractions) if self.op == "and" else max(fractions)
        message = "; ".join(r.message for r in results if r.message)
        return EvalResult(success=ok, message=message, progress=progress)


@overload
def evaluator(func: FuncT, /) -> Evaluator: ...


@overload
def evaluator(
    *,
    name: str | None = None,
    env: str | None = None,
    description: str | None = None,
    moment: bool = False,
    governs: StateKeys | None = None,
    end_state: EndState | None = None,
) -> Callable[[FuncT], Evaluator]: ...


def evaluator(
    func: FuncT | None = None,
    /,
    *,
    name: str | None = None,
    env: str | None = None,
    description: str | None = None,
    moment: bool = False,
    governs: StateKeys | None = None,
    end_state: EndState | None = None,
) -> Evaluator | Callable[[FuncT], Evaluator]:
    """Turn a function returning ``bool``/:class:`EvalResult` into an :class:`Evaluator`.

    Args:
        func: The function (when used bare).
        name: Name in reports; defaults to the function's name.
        env: Name of the environment the evaluator always reads.
        description: Overrides the docstring.
        moment: An observation or trajectory check, not re-checked at the end.
        governs: Computes the state keys a state checkpoint reads from its arguments.
        end_state: Fixes, when the node completes, what must hold at the end (see
            :data:`EndState`); default: the evaluator itself.
    """

    def wrap(f: FuncT) -> Evaluator:
        return Evaluator(
            f,
            name=name,
            description=description,
            env_name=env,
            moment=moment,
            governs=governs,
            end_state=end_state,
        )

    return wrap(func) if func is not None else wrap
