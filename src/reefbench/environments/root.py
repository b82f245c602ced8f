"""The root environment: actions that belong to no device (CRAB's environment-irrelevant
actions plus OS-MAP's CALL_USER), available in every task.

Every episode has one, so it is part of the core, not of :mod:`reefbench.envs`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Annotated, Any, Protocol

from pydantic import Field

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.actions.spec import action
from reefbench.environments.contract import Environment
from reefbench.tasks.answers import answers_match, score_rubric

ROOT = "root"


class Judge(Protocol):
    """Grades a free-text answer against the facts it must state (VeriGUI's LLM judge).

    Optional and off by default: without one, ``answer_judged`` scores the rubric
    deterministically. Returns whether the answer is correct and a one-line reason.
    """

    def __call__(self, question: str, answer: str, facts: Sequence[str]) -> tuple[bool, str]: ...


class RootEnvironment(Environment):
    """Holds the episode-level state the root actions change: done flag, answer, user calls."""

    def __init__(
        self,
        user_data: Mapping[str, str] | None = None,
        user: Callable[[str], str | None] | None = None,
        judge: Judge | None = None,
    ) -> None:
        super().__init__(
            ROOT,
            "Actions that do not belong to a device: finish the task, submit an answer, "
            "declare the task infeasible, wait, or ask the user for something only they "
            "know (such as credentials).",
            action_space=[complete, submit, infeasible, wait, call_user],
        )
        self.user_data = dict(user_data or {})
        # A live user (a person at the terminal) answers instead of the task's user data.
        self.user = user
        self.judge = judge
        self.verdicts: dict[tuple[str, str, tuple[str, ...]], tuple[bool, str]] = {}
        self.finished = False
        self.answer: str | None = None
        # Why the agent said the task cannot be done here (None: it did not say so).
        self.infeasible_reason: str | None = None
        self.user_calls: list[str] = []

    def on_reset(self) -> None:
        self.finished = False
        self.answer = None
        self.infeasible_reason = None
        self.user_calls = []


@action
def complete(env: RootEnvironment) -> str:
    """Declare that the whole task is finished. Call it only when every part is done."""
    env.finished = True
    return "task marked as complete"


@action
def submit(answer: str, env: RootEnvironment) -> str:
    """Submit the final answer the task asks for, and finish the task.

    Args:
        answer: The answer, as short and exact as the task requires.
    """
    env.answer = answer
    env.finished = True
    return "answer submitted"


@action
def infeasible(reason: str, env: RootEnvironment) -> str:
    """Declare that the task cannot be done in these environments, and finish the task.
    Call it only after checking, when what the task asks for does not exist or cannot be
    done here; never to give up on a task that is merely hard.

    Args:
        reason: Why it cannot be done, in one sentence.
    """
    env.infeasible_reason = reason.strip() or "no reason given"
    env.finished = True
    return "task declared infeasible"


MAX_WAIT_SECONDS = 30
"""The longest one ``wait`` lets pass (Gemini's own action waits 5 s, Anthropic's names
its duration): longer waits take several steps, so a stuck agent still runs out of budget."""


@action
def wait(
    seconds: Annotated[float, Field(ge=0, le=MAX_WAIT_SECONDS)] = 0, *, env: RootEnvironment
) -> str:
    """Act on nothing for one step, then observe again: for a page, a program or a
    command that is still working (a command's output comes when it has finished).

    Args:
        seconds: How long to let pass before the next observation (0 to 30; 0: look
            again at once, once the screens have settled).
    """
    if seconds > 0:
        time.sleep(seconds)  # the time the agent asked for, not a synchronisation
        return f"waited {seconds:g} s"
    return "waited"


@action
def call_user(kind: str, env: RootEnvironment) -> str:
    """Ask the user for information only they have, e.g. login credentials, or which of
    two things they mean.

    Args:
        kind: What you need, a short label such as "password", "email" or "which contact".
    """
    kind = user_kind(kind, env.user_data) or kind
    env.user_calls.append(kind)
    value = env.user(kind) if env.user is not None else env.user_data.get(kind)
    if value is None:
        if env.user is not None:
            return f"The user cannot help with '{kind}'."
        known = ", ".join(sorted(env.user_data)) or "nothing"
        return f"The user cannot help with '{kind}' (they can provide: {known})."
    return value


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.casefold())


def user_kind(asked: str, kinds: Iterable[str]) -> str | None:
    """The kind of information the user can give that ``asked`` names: the same words
    (case, ``_``, ``-`` and punctuation aside: "Verification code" is "verification_code"),
    else the one kind all of whose words the request holds ("which meeting do you mean?" is
    "which meeting"), else, for a question asking "which" one, the one choice the user can
    make ("which budget.txt, the Wedding one or the Garden one?" is "which file"); ``None``
    when none or several fit. A request is judged by what it asks for, not by guessing a
    key's spelling (playtests lost steps to that)."""
    words = _words(asked)
    kinds = list(kinds)
    for kind in kinds:
        if _words(kind) == words:
            return kind
    fits = [k for k in kinds if _words(k) and set(_words(k)) <= set(words)]
    if fits:
        return fits[0] if len(fits) == 1 else None
    choices = [k for k in kinds if _words(k)[:1] == ["which"]]
    return choices[0] if "which" in words and len(choices) == 1 else None


def _answer_keys(**_: Any) -> list[str]:
    return ["answer:"]


@evaluator(env=ROOT, governs=_answer_keys)
def answer_equals(expected: str, env: RootEnvironment, units: Sequence[str] = ()) -> EvalResult:
    """The submitted answer says the expected one (:func:`reefbench.tasks.answers.answers_match`:
    case, spacing, quotes and final punctuation ignored; numbers compared as numbers,
    optionally followed by one of ``units``).

    Args:
        expected: The correct answer.
        units: Units the answer may name after a number, e.g. ["lines"].
    """
    answer = env.answer
    if answer is None:
        return EvalResult(success=False, message="no answer submitted yet")
    if answers_match(answer, expected, units):
        return EvalResult(success=True, message="answer is correct")
    return EvalResult(success=False, message=f"answer {answer!r} is not {expected!r}")


@evaluator(env=ROOT, governs=_answer_keys)
def answer_one_of(accepted: Sequence[str], env: RootEnvironment) -> EvalResult:
    """The submitted answer says one of several spellings of the one right answer ("March",
    "Mar"; "Anna Berg", "Anna"), each compared as :func:`answer_equals` compares.

    Args:
        accepted: The ways of writing the correct answer.
    """
    answer = env.answer
    if answer is None:
        return EvalResult(success=False, message="no answer submitted yet")
    if any(answers_match(answer, a) for a in accepted):
        return EvalResult(success=True, message="answer is correct")
    return EvalResult(success=False, message=f"answer {answer!r} is not {accepted[0]!r}")


@evaluator(env=ROOT, governs=_answer_keys)
def answer_covers(facts: Sequence[str], env: RootEnvironment) -> EvalResult:
    """The submitted free-text answer states every required fact (a rubric; ``a|b`` accepts
    either spelling). Progress is the share of facts stated.

    Args:
        facts: Short phrases the answer must contain as whole words.
    """
    if env.answer is None:
        return EvalResult(success=False, message="no answer submitted yet")
    score = score_rubric(env.answer, facts)
    if not score.missing:
        return EvalResult(success=True, message="the answer states every required fact")
    return EvalResult(
        success=False,
        message=f"the answer does not state: {'; '.join(score.missing)}",
        progress=score.share,
    )


@evaluator(env=ROOT, governs=_answer_keys)
def answer_judged(question: str, facts: Sequence[str], env: RootEnvironment) -> EvalResult:
    """A free-text answer graded by the run's judge model when one is configured
    (``reef run --judge MODEL``), else by the rubric exactly as :func:`answer_covers`.

    Args:
        question: What was asked, as the judge should read it.
        facts: The facts a correct answer states.
    """
    if env.answer is None:
        return EvalResult(success=False, message="no answer submitted yet")
    if env.judge is None:
        result: EvalResult = answer_covers.func(facts=facts, env=env)
        return result
    # The graph re-checks active nodes after every action: ask the judge once per answer.
    key = (question, env.answer, tuple(facts))
    if key not in env.verdicts:
        env.verdicts[key] = env.judge(question, env.answer, facts)
    correct, reason = env.verdicts[key]
    return EvalResult(success=correct, message=f"judge: {reason}")


@evaluator(env=ROOT, moment=True)
def declared_infeasible(env: RootEnvironment) -> EvalResult:
    """The agent declared the task infeasible (the root action ``infeasible``), with a
    reason. Whether the reason is right is not judged: what the task asked for does not
    exist, so declaring it is the answer; other checkpoints may require that nothing was
    done instead."""
    reason = env.infeasible_reason
    if reason is None:
        return EvalResult(success=False, message="the task was not declared infeasible")
    return EvalResult(success=True, message=f"declared infeasible: {reason}")


@evaluator(env=ROOT, moment=True)
def user_was_asked(kind: str, env: RootEnvironment) -> bool:
    """The agent asked the user (CALL_USER) for this kind of information.

    Args:
        kind: e.g. "password".
    """
    return kind in env.user_calls  # a request is recorded by the kind it named (call_user)
