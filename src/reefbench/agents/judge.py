"""A model that grades free-text answers (VeriGUI's LLM-as-judge), opt-in per run.

Scores are deterministic by default: ``root.answer_judged`` checks a rubric of required
facts. A run started with ``--judge MODEL`` asks that model instead, once per answer, and
records its one-line reason in the checkpoint's message. The judge sees the question, the
facts and the answer, nothing of the episode, and must reply with a JSON object.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from reefbench.agents.providers.base import Message, Provider, ProviderError, TextPart

SYSTEM = (
    "You grade answers. Given a question, the facts a correct answer must state, and an "
    "answer, reply with only a JSON object: "
    '{"correct": true or false, "reason": "one short sentence"}. '
    "The answer is correct when it states every fact (in any wording) and contradicts none."
)


class ModelJudge:
    """Grades with one request per answer through any :class:`Provider`."""

    def __init__(self, provider: Provider) -> None:
        self.provider = provider

    def __call__(self, question: str, answer: str, facts: Sequence[str]) -> tuple[bool, str]:
        listed = "\n".join(f"- {f}" for f in facts)
        prompt = f"Question: {question}\nFacts:\n{listed}\nAnswer: {answer}"
        reply = self.provider.complete(SYSTEM, [Message("user", [TextPart(prompt)])])
        return parse_verdict(reply.text)


def parse_verdict(text: str) -> tuple[bool, str]:
    """``(correct, reason)`` from the judge's reply; an unreadable reply is the judge's
    failure (``ProviderError``: an infrastructure error), never the agent's."""
    start, end = text.find("{"), text.rfind("}")
    try:
        verdict = json.loads(text[start : end + 1]) if start >= 0 else None
    except json.JSONDecodeError:
        verdict = None
    if not isinstance(verdict, dict) or not isinstance(verdict.get("correct"), bool):
        raise ProviderError(f"the judge did not reply with a verdict: {text[:120]!r}")
    return verdict["correct"], str(verdict.get("reason", ""))[:300]
