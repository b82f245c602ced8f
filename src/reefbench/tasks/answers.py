"""Comparing a submitted answer with the expected one, deterministically.

An agent that answers "1,024 lines." to "How many lines?" has answered 1024, and one that
writes "Studio C" where "studio c" was expected has the place right: scoring such answers
as wrong measures formatting, not skill. Equally, "12 apples" is not the answer 12 lines,
and "Studio" is not "Studio C". The rules here are the whole definition of a match, so
that a result can be reproduced without a model:

* text is compared after Unicode normalisation (NFKC), case folding, collapsing
  whitespace and dropping surrounding quotes and final punctuation;
* numbers are compared as numbers ("1,024", "1 024", "1024.0" and "+1024" are equal),
  optionally followed by a unit from the expected answer's list;
* a free-text answer is scored against a rubric of required facts: each fact (a short
  phrase, or several spellings separated by ``|``) must occur in the normalised answer as
  whole words; the score is the share of facts present.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

_EDGE = " \t\n\"'`“”‘’«».,;:!?"
_NUMBER = re.compile(
    r"""^(?P<sign>[-+]?)
    (?P<int>\d{1,3}(?:[,\u202f\u00a0 _]\d{3})+|\d+)
    (?:\.(?P<frac>\d+))?
    \s*(?P<rest>.*)$""",
    re.VERBOSE,
)


def normalise(text: str) -> str:
    """The form two answers are compared in (see the module docstring)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(folded.split()).strip(_EDGE)


def parse_number(text: str) -> tuple[float, str] | None:
    """``(value, unit)`` for an answer that is a number, perhaps with a unit after it."""
    match = _NUMBER.match(normalise(text))
    if match is None:
        return None
    digits = re.sub(r"\D", "", match["int"])
    value = float(f"{match['sign']}{digits}.{match['frac'] or '0'}")
    return value, match["rest"].strip(_EDGE)


def answers_match(answer: str, expected: str, units: Sequence[str] = ()) -> bool:
    """Whether ``answer`` says ``expected``: as numbers when ``expected`` is one (with an
    optional unit from ``units``), else as normalised text."""
    want = parse_number(expected)
    if want is not None and not want[1]:
        got = parse_number(answer)
        if got is None:
            return False
        allowed = {"", *(normalise(u) for u in units)}
        return math.isclose(got[0], want[0], rel_tol=0, abs_tol=1e-9) and got[1] in allowed
    return normalise(answer) == normalise(expected)


@dataclass(frozen=True)
class RubricScore:
    """How many of a rubric's facts an answer states, and which are missing."""

    present: int
    total: int
    missing: tuple[str, ...]

    @property
    def share(self) -> float:
        return self.present / self.total if self.total else 1.0


def score_rubric(answer: str, facts: Sequence[str]) -> RubricScore:
    """Score a free-text answer against required facts (``a|b`` means either spelling)."""
    said = f" {normalise(answer)} "
    missing = []
    for fact in facts:
        spellings = [normalise(s) for s in fact.split("|") if s.strip()]
        if not any(_has_words(said, s) for s in spellings):
            missing.append(fact)
    return RubricScore(len(facts) - len(missing), len(facts), tuple(missing))


def _has_words(said: str, phrase: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", said) is not None
