"""Evaluators over the screen's UI hierarchy (CRAB's XML-based Android evaluators).

They read any :class:`~reefbench.envs.ui.device.UISource`: the phone, a real Android
device, or a recorded dump, so one task definition checks all three. Texts compare
case-insensitively with whitespace collapsed; a ``resource_id`` without ``:id/`` matches
that id in any package (``compose`` matches ``com.google.android.gm:id/compose``).
Route them to the device with ``.on("phone")``.
"""

from __future__ import annotations

from typing import Any, Literal

from reefbench.actions.evaluators import EvalResult, evaluator
from reefbench.envs.ui.device import UISource
from reefbench.envs.ui.hierarchy import UIHierarchy, UINode, normalise, text_matches
from reefbench.errors import ConfigError

Compare = Literal["eq", "ge", "le"]


def _describe(**criteria: Any) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in criteria.items() if v not in ("", None))


def _select(ui: UIHierarchy, resource_id: str, text: str, content_desc: str) -> list[UINode]:
    if not (resource_id or text or content_desc):
        raise ConfigError("name the element by resource_id, text or content_desc")
    return ui.find_all(resource_id=resource_id, text=text, content_desc=content_desc)


def _compare(actual: int, expected: int, compare: Compare) -> bool:
    if compare == "ge":
        return actual >= expected
    if compare == "le":
        return actual <= expected
    return actual == expected


@evaluator(moment=True)
def current_app(package: str, env: UISource) -> EvalResult:
    """The app in front of the screen is ``package`` (e.g. ``com.reef.mail``).

    Args:
        package: The Android package name of the app.
    """
    current = env.current_package()
    if current == package:
        return EvalResult(success=True, message=f"{package} is in front")
    return EvalResult(success=False, message=f"{current or 'no app'} is in front, not {package}")


@evaluator(moment=True)
def text_on_screen(text: str, env: UISource, exact: bool = False) -> EvalResult:
    """Some element shows ``text`` (as its text or its content description).

    Args:
        text: The text to look for.
        exact: The whole element text must equal it (default: contained in it).
    """
    for shown in env.ui_hierarchy().texts():
        if text_matches(shown, text, exact):
            return EvalResult(success=True, message=f"{text!r} is on screen")
    return EvalResult(success=False, message=f"{text!r} is not on screen")


@evaluator(moment=True)
def element_text(resource_id: str, text: str, env: UISource, exact: bool = True) -> EvalResult:
    """The element with this resource id shows this text.

    Args:
        resource_id: ``package:id/name`` or just ``name``.
        text: The expected text.
        exact: The whole text must equal it (default), or only contain it.
    """
    nodes = env.ui_hierarchy().find_all(resource_id=resource_id)
    if not nodes:
        return EvalResult(success=False, message=f"no element with id {resource_id!r}")
    if any(text_matches(n.text, text, exact) for n in nodes):
        return EvalResult(success=True, message=f"{resource_id} shows {text!r}")
    shown = "; ".join(repr(n.text) for n in nodes[:3])
    return EvalResult(success=False, message=f"{resource_id} shows {shown}, not {text!r}")


def _state_node(node: UINode, flag: str) -> UINode | None:
    """The node carrying ``flag`` for this element: itself, or the checkable node in its row
    (a settings title's switch sits beside the title, under a shared ancestor, at the same
    height)."""
    if flag != "checked" or node.flag("checkable"):
        return node
    top, bottom = node.bounds[1], node.bounds[3]

    def same_row(other: UINode) -> bool:
        return other.flag("checkable") and other.bounds[1] < bottom and other.bounds[3] > top

    ancestor = node.parent
    for _ in range(3):
        if ancestor is None:
            break
        found = next((n for n in ancestor.iter() if same_row(n)), None)
        if found is not None:
            return found
        ancestor = ancestor.parent
    return None


def _flag_is(
    env: UISource, flag: str, wanted: bool, resource_id: str, text: str, content_desc: str
) -> EvalResult:
    what = _describe(resource_id=resource_id, text=text, content_desc=content_desc)
    nodes = _select(env.ui_hierarchy(), resource_id, text, content_desc)
    if not nodes:
        return EvalResult(success=False, message=f"no element with {what}")
    states = []
    for node in nodes:
        carrier = _state_node(node, flag)
        if carrier is None:
            continue
        if carrier.flag(flag) == wanted:
            return EvalResult(success=True, message=f"element with {what} is {flag}={wanted}")
        states.append(carrier.flag(flag))
    if not states:
        return EvalResult(success=False, message=f"element with {what} cannot be {flag}")
    return EvalResult(success=False, message=f"element with {what} is {flag}={states[0]}")


@evaluator(moment=True)
def element_checked(
    env: UISource,
    resource_id: str = "",
    text: str = "",
    content_desc: str = "",
    checked: bool = True,
) -> EvalResult:
    """A checkbox, switch or radio button (named by id, label or description) is on/off.

    A label without a switch of its own (a settings row title) refers to the switch in
    its row.

    Args:
        resource_id: Its id.
        text: Its label.
        content_desc: Its content description.
        checked: The expected state.
    """
    return _flag_is(env, "checked", checked, resource_id, text, content_desc)


@evaluator(moment=True)
def element_selected(
    env: UISource,
    resource_id: str = "",
    text: str = "",
    content_desc: str = "",
    selected: bool = True,
) -> EvalResult:
    """An element (a tab, a list entry) is selected or not.

    Args:
        resource_id: Its id.
        text: Its label.
        content_desc: Its content description.
        selected: The expected state.
    """
    return _flag_is(env, "selected", selected, resource_id, text, content_desc)


@evaluator(moment=True)
def list_item_count(
    resource_id: str, count: int, env: UISource, compare: Compare = "eq"
) -> EvalResult:
    """The list with this resource id shows ``count`` items (its direct children).

    Args:
        resource_id: The list container's id.
        count: The expected number of items.
        compare: "eq" (exactly), "ge" (at least) or "le" (at most).
    """
    nodes = env.ui_hierarchy().find_all(resource_id=resource_id)
    if not nodes:
        return EvalResult(success=False, message=f"no list with id {resource_id!r}", progress=0)
    actual = max(len(n.children) for n in nodes)
    ok = _compare(actual, count, compare)
    progress = 1.0 if ok else (min(actual, count) / count if count else 0.0)
    return EvalResult(
        success=ok,
        message=f"{resource_id} has {actual} items ({compare} {count})",
        progress=progress,
    )


@evaluator(moment=True)
def element_count(
    count: int,
    env: UISource,
    resource_id: str = "",
    text: str = "",
    class_name: str = "",
    compare: Compare = "eq",
) -> EvalResult:
    """The screen shows ``count`` elements matching all the given criteria.

    Args:
        count: The expected number.
        resource_id: Match this id.
        text: Match elements whose text contains this.
        class_name: Match this class (``TextView`` or ``android.widget.TextView``).
        compare: "eq" (exactly), "ge" (at least) or "le" (at most).
    """
    if not (resource_id or text or class_name):
        raise ConfigError("element_count needs resource_id, text or class_name")
    nodes = env.ui_hierarchy().find_all(
        resource_id=resource_id, text=text, class_name=class_name, exact=False
    )
    ok = _compare(len(nodes), count, compare)
    what = _describe(resource_id=resource_id, text=text, class_name=class_name)
    return EvalResult(success=ok, message=f"{len(nodes)} elements with {what} ({compare} {count})")


__all__ = [
    "current_app",
    "element_checked",
    "element_count",
    "element_selected",
    "element_text",
    "list_item_count",
    "normalise",
    "text_on_screen",
]
