"""Checks of the answer an agent gave with ``submit(answer)`` (routed to the root env).

Four strictnesses, from :func:`answer_exact` to :func:`answer_items`, which gives partial
credit the way VeriGUI's completion rate does: the share of expected items the answer
contains (extra items count against it unless ``allow_extra``).
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

from reefbench.envs.root import ROOT, RootEnvironment
from reefbench.evaluators import EvalResult, evaluator

_NUMBER = re.compile(r"[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+−]?\.\d+")
_EDGE_PUNCTUATION = " \t\n.,;:!?\"'`«»“”‘’()[]{}"
_SPLIT = re.compile(r"\s*(?:[,;\n]|\band\b)\s*", re.IGNORECASE)


def _answer(env: Any) -> str | None:
    if not isinstance(env, RootEnvironment):
        raise TypeError(f"answer checks read the root environment, got {type(env).__name__}")
    return env.answer


def normalise_answer(text: str) -> str:
    """Unicode-normalised (NFKC), case-folded, whitespace collapsed, and stripped of
    surrounding punctuation and quotes: ``' "Paris." '`` -> ``paris``."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(folded.split()).strip(_EDGE_PUNCTUATION)


def numbers_in(text: str) -> list[float]:
    """The numbers written in ``text`` (``1,059`` and ``−3.5`` included)."""
    out = []
    for match in _NUMBER.findall(unicodedata.normalize("NFKC", text)):
        out.append(float(match.replace(",", "").replace("−", "-")))
    return out


def _missing() -> EvalResult:
    return EvalResult(success=False, message="no answer submitted yet", progress=0.0)


@evaluator(env=ROOT)
def answer_exact(expected: str, env: Any) -> EvalResult:
    """The submitted answer is exactly ``expected`` (only surrounding spaces are ignored).

    Args:
        expected: The correct answer, character for character.
    """
    answer = _answer(env)
    if answer is None:
        return _missing()
    if answer.strip() == expected.strip():
        return EvalResult(success=True, message="answer is exactly right")
    return EvalResult(success=False, message=f"answer {answer!r} is not exactly {expected!r}")


@evaluator(env=ROOT)
def answer_normalised(expected: str, env: Any) -> EvalResult:
    """The answer equals ``expected`` ignoring case, spacing, Unicode forms and
    surrounding punctuation or quotes.

    Args:
        expected: The correct answer.
    """
    answer = _answer(env)
    if answer is None:
        return _missing()
    if normalise_answer(answer) == normalise_answer(expected):
        return EvalResult(success=True, message="answer is right")
    return EvalResult(success=False, message=f"answer {answer!r} is not {expected!r}")


@evaluator(env=ROOT)
def answer_number(
    expected: float, env: Any, tolerance: float = 0.0, relative: bool = False
) -> EvalResult:
    """The answer is a number within ``tolerance`` of ``expected``.

    Units and words around the number are ignored ("$1,059.00" is 1059), but an answer
    with several different numbers is refused as ambiguous.

    Args:
        expected: The correct value.
        tolerance: Largest accepted difference (absolute, or a fraction of ``expected``
            when ``relative``).
        relative: Read ``tolerance`` as relative.
    """
    answer = _answer(env)
    if answer is None:
        return _missing()
    found = sorted(set(numbers_in(answer)))
    if not found:
        return EvalResult(success=False, message=f"answer {answer!r} contains no number")
    if len(found) > 1:
        return EvalResult(success=False, message=f"answer {answer!r} has several numbers: {found}")
    value = found[0]
    allowed = tolerance * abs(expected) if relative else tolerance
    if math.isclose(value, expected, rel_tol=0.0, abs_tol=allowed + 1e-9 * max(1.0, abs(expected))):
        return EvalResult(success=True, message=f"answer {value:g} is within {allowed:g}")
    return EvalResult(
        success=False, message=f"answer {value:g} is off by {abs(value - expected):g}"
    )


def split_items(text: str) -> list[str]:
    """Items of a list answer: separated by commas, semicolons, newlines or "and"."""
    return [item for item in (normalise_answer(p) for p in _SPLIT.split(text)) if item]


@evaluator(env=ROOT)
def answer_items(expected: list[str], env: Any, allow_extra: bool = False) -> EvalResult:
    """The answer lists exactly these items, in any order, with partial credit.

    Items may be separated by commas, semicolons, newlines or "and"; each compares as in
    :func:`answer_normalised`. Progress is the share of expected items given; items that
    were not asked for lower it (the denominator is the longer of the two lists) unless
    ``allow_extra``.

    Args:
        expected: The items of the correct answer.
        allow_extra: Accept (and do not penalise) items beyond the expected ones.
    """
    answer = _answer(env)
    if answer is None:
        return _missing()
    wanted = {normalise_answer(item) for item in expected if normalise_answer(item)}
    given = set(split_items(answer))
    hits = wanted & given
    missing = sorted(wanted - given)
    extra = sorted(given - wanted)
    denominator = len(wanted) if allow_extra else max(len(wanted), len(given))
    progress = len(hits) / denominator if denominator else 1.0
    ok = not missing and (allow_extra or not extra)
    parts = [f"{len(hits)}/{len(wanted)} items right"]
    if missing:
        parts.append(f"missing: {', '.join(missing)}")
    if extra:
        parts.append(f"not asked for: {', '.join(extra)}")
    return EvalResult(success=ok, message="; ".join(parts), progress=progress)
