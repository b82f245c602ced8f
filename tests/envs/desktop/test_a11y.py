"""Naming of the elements GTK leaves nameless (no desktop needed: the reader's JSON)."""

from __future__ import annotations

from typing import Any

from reefbench.envs.desktop.a11y import parse_windows


def _window(*nodes: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"app": "drawing", "title": "t", "role": "frame", "nodes": list(nodes)}]


def _node(role: str, name: str, depth: int, *states: str) -> dict[str, Any]:
    return {"role": role, "name": name, "depth": depth, "states": list(states)}


def _names(raw: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(n.role, n.name) for n in parse_windows(raw)[0].nodes]


def test_a_focusable_row_with_one_label_is_named_by_it() -> None:
    raw = _window(
        _node("table", "", 1),
        _node("list item", "", 2, "focusable"),
        _node("icon", "", 3),
        _node("label", "Rotate", 3),
        _node("list item", "", 2, "focusable"),
        _node("label", "Scale", 3),
    )
    assert _names(raw)[1] == ("list item", "Rotate")
    assert _names(raw)[4] == ("list item", "Scale")


def test_a_row_with_two_labels_or_not_focusable_keeps_no_name() -> None:
    raw = _window(
        _node("list item", "", 1, "focusable"),
        _node("label", "Inbox", 2),
        _node("label", "12", 2),
        _node("list item", "", 1),
        _node("label", "Sent", 2),
    )
    assert _names(raw)[0] == ("list item", "")
    assert _names(raw)[3] == ("list item", "")


def test_a_spin_button_is_named_by_the_label_beside_it_at_its_depth() -> None:
    raw = _window(
        _node("filler", "", 1),
        {**_node("label", "Width:", 2), "box": [10, 100, 50, 30]},
        {**_node("spin button", "", 2), "box": [70, 100, 100, 30]},
        {**_node("label", "px", 3), "box": [180, 140, 20, 30]},
        {**_node("spin button", "", 2), "box": [210, 140, 100, 30]},
    )
    names = _names(raw)
    assert names[2] == ("spin button", "Width")
    assert names[4] == ("spin button", "")  # the label beside it is deeper: not its own
