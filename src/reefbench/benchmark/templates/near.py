"""Wrong values for near misses: the slips a careless agent makes.

Each function turns a correct attribute value into a plausible wrong one of the same type
(so the near miss still plays through the real action space): a typo, two digits swapped,
a look-alike address, the neighbouring entry of a list, the right file name in the wrong
folder. The validation gates play the reference solution with such a value and require
that the subtask's checkpoints do not accept it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reefbench.benchmark.templates.common import basename


def typo(text: str) -> str:
    """Two neighbouring letters swapped near the middle (``coffee`` -> ``cofefe``)."""
    for i in range(len(text) // 2, len(text) - 1):
        a, b = text[i], text[i + 1]
        if a.isalpha() and b.isalpha() and a != b:
            return text[:i] + b + a + text[i + 2 :]
    return text + text[-1]


def digits_swapped(code: str) -> str:
    """The last two digits swapped (``555-0101`` -> ``555-0110``), or the last one changed."""
    digits = [i for i, c in enumerate(code) if c.isdigit()]
    i, j = digits[-2], digits[-1]
    if code[i] != code[j]:
        return code[:i] + code[j] + code[i + 1 : j] + code[i] + code[j + 1 :]
    return code[:j] + str((int(code[j]) + 1) % 10) + code[j + 1 :]


def lookalike_address(address: str) -> str:
    """Another person's address that contains this one (``ana.ruiz@`` -> ``dana.ruiz@``):
    a recipient check by substring would take it."""
    return "d" + address


def in_home_folder(path: str) -> str:
    """The right file name, saved straight into the home folder."""
    return "~/" + basename(path)


def one_more(number: int) -> int:
    return number + 1


def neighbour_in(pool: Sequence[Any]) -> Callable[[Any], Any]:
    """The value after this one in ``pool`` (the entry next to the right one in a list)."""

    def neighbour(value: Any) -> Any:
        index = pool.index(value) if value in pool else -1
        return pool[(index + 1) % len(pool)]

    return neighbour


def without_last_number(numbers: str) -> str:
    """A list of numbers read without its last line."""
    return " ".join(numbers.split()[:-1])
