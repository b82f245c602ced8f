"""The environments a prompt lists, with what several of them share said once.

A role that acts on several devices used to read the same explanation of marks and
element lists once per device (about 80 tokens each, in every request). The device kinds
word that explanation in the same sentences (``observe/marks.py``: ``MARKS_SENTENCE``,
``FIELDS_SENTENCE``), so a sentence found in two or more descriptions is written once, on
a line naming every environment it applies to; each environment's line keeps the rest, in
order. Nothing is reworded: the model reads every sentence it read before.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# A sentence ends at ".", "!" or "?" followed by a space and a capital letter, so
# "e.g. (checked)" or "them. press('back')" stay inside one sentence; a missed split only
# keeps two sentences together, never loses text.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def sentences(text: str) -> list[str]:
    """``text`` (whitespace normalised) cut into sentences."""
    return [s for s in _SENTENCE_END.split(" ".join(text.split())) if s]


def environments_text(descriptions: Mapping[str, str]) -> str:
    """One line per environment (``- name: description``), then one line per group of
    sentences shared by the same environments (``- desktop, phone, browser: ...``)."""
    split = {name: sentences(text) for name, text in descriptions.items()}
    owners: dict[str, list[str]] = {}
    for name, parts in split.items():
        for sentence in dict.fromkeys(parts):
            owners.setdefault(sentence, []).append(name)
    shared = {s: tuple(names) for s, names in owners.items() if len(names) > 1}
    lines = []
    for name, parts in split.items():
        own = [s for s in parts if s not in shared]
        if own:
            lines.append(f"- {name}: {' '.join(own)}")
    groups: dict[tuple[str, ...], list[str]] = {}
    for sentence, names in shared.items():
        groups.setdefault(names, []).append(sentence)
    lines += [f"- {', '.join(names)}: {' '.join(text)}" for names, text in groups.items()]
    return "\n".join(lines)
