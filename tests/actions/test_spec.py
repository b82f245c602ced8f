"""Actions: schema from signature and docstring, the tool shapes providers send
(:mod:`reefbench.agents.providers.dialects`), binding, validation."""

from __future__ import annotations

import enum
import json
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from reefbench import Action, ConfigError, InvalidActionArguments, action
from reefbench.actions.spec import compact_schema
from reefbench.agents.providers.dialects import tool_schema


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Point(BaseModel):
    x: int
    y: int


@action
def click(
    elem: int,
    button: Literal["left", "right"] = "left",
    color: Color = Color.RED,
    points: list[Point] | None = None,
    title: str = "untitled",
    ratio: float = 0.5,
    double: bool = False,
    env: Any = None,
) -> str:
    """Click an element of the screen.

    Use the Set-of-Marks id from the latest observation.

    Args:
        elem: The Set-of-Marks id.
        button: Which mouse button.
        color: Highlight colour.
        points: Extra points to visit.
        title: A parameter literally named title.
        ratio: Fraction of the element width.
        double: Double-click instead.
    """
    return f"{elem}:{button}:{color.value}:{points}:{env}"


def _walk(node: Any) -> list[Any]:
    found = [node]
    if isinstance(node, dict):
        for value in node.values():
            found += _walk(value)
    elif isinstance(node, list):
        for value in node:
            found += _walk(value)
    return found


def test_name_and_description_come_from_the_function() -> None:
    assert isinstance(click, Action)
    assert click.name == "click"
    assert click.description == (
        "Click an element of the screen.\n\nUse the Set-of-Marks id from the latest observation."
    )


def test_schema_types_and_descriptions_including_defaulted_parameters() -> None:
    schema = click.parameters_schema
    props = schema["properties"]
    assert schema["type"] == "object"
    assert schema["required"] == ["elem"]
    assert props["elem"] == {"type": "integer", "description": "The Set-of-Marks id."}
    assert props["button"]["enum"] == ["left", "right"]
    assert props["button"]["description"] == "Which mouse button."  # CRAB drops these
    assert props["color"]["enum"] == ["red", "blue"]
    assert props["ratio"]["type"] == "number"
    assert props["double"]["type"] == "boolean"
    assert props["points"]["anyOf"][0]["items"]["properties"]["x"] == {"type": "integer"}
    assert "title" in props  # a parameter named "title" survives title-stripping


def test_env_is_hidden_and_schema_is_self_contained() -> None:
    schema = click.parameters_schema
    assert "env" not in schema["properties"]
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text
    titles = [n for n in _walk(schema) if isinstance(n, dict) and "title" in n]
    assert titles == [schema["properties"]], "only the property *named* title may remain"


def test_openai_and_anthropic_shapes() -> None:
    openai = tool_schema(click, "openai")
    assert openai["type"] == "function"
    assert openai["function"]["name"] == "click"
    assert openai["function"]["parameters"] == compact_schema(click.parameters_schema)
    assert openai["function"]["description"] == (
        "Click an element of the screen. Use the Set-of-Marks id from the latest observation."
    )
    anthropic = tool_schema(click, "anthropic")
    assert set(anthropic) == {"name", "description", "input_schema"}
    assert anthropic["input_schema"] == compact_schema(click.parameters_schema)


def test_compact_schema_leaves_out_only_what_says_nothing() -> None:
    full = click.parameters_schema
    sent = compact_schema(full)
    assert "additionalProperties" not in sent
    assert sent["required"] == full["required"] == ["elem"]
    # An optional nullable parameter: its non-null type, not required, no null default.
    points = sent["properties"]["points"]
    assert points["type"] == "array" and "anyOf" not in points and "default" not in points
    assert points["items"] == full["properties"]["points"]["anyOf"][0]["items"]
    assert points["description"] == "Extra points to visit."
    # A description that says more than the enum stays; defaults stay.
    assert sent["properties"]["button"]["description"] == "Which mouse button."
    assert sent["properties"]["button"]["default"] == "left"


def test_a_description_listing_only_the_enum_is_left_out() -> None:
    @action
    def turn(direction: Literal["up", "down"], speed: Literal["slow", "fast"] = "slow") -> None:
        """Turn.

        Args:
            direction: "up" or "down".
            speed: How fast, "slow" or "fast".
        """

    sent = tool_schema(turn, "openai")["function"]["parameters"]["properties"]
    assert sent["direction"] == {"enum": ["up", "down"], "type": "string"}
    assert sent["speed"]["description"] == 'How fast, "slow" or "fast".'


def test_a_summary_wrapped_over_two_lines_stays_one_paragraph() -> None:
    @action
    def hold(elem: int) -> None:
        """Press and hold an element, usually to open a menu
        of options for it.

        Args:
            elem: The element.
        """

    assert (
        hold.description == "Press and hold an element, usually to open a menu\nof options for it."
    )
    assert tool_schema(hold, "anthropic")["description"] == (
        "Press and hold an element, usually to open a menu of options for it."
    )


def test_gemini_shape_has_no_null_unions_nor_defaults() -> None:
    gemini = tool_schema(click, "gemini")
    points = gemini["parameters"]["properties"]["points"]
    assert points["type"] == "array" and "points" not in gemini["parameters"]["required"]
    nodes = _walk(gemini)
    assert not any(isinstance(n, dict) and ("default" in n or "anyOf" in n) for n in nodes)
    assert not any(isinstance(n, dict) and "additionalProperties" in n for n in nodes)


def test_gemini_omits_parameters_when_there_are_none() -> None:
    @action
    def noop() -> None:
        """Do nothing."""

    assert tool_schema(noop, "gemini") == {"name": "noop", "description": "Do nothing."}


def test_unknown_provider_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="openai, anthropic, gemini"):
        tool_schema(click, "cohere")


def test_calling_binds_without_running() -> None:
    calls: list[int] = []

    @action
    def record(value: int) -> int:
        """Record a value.

        Args:
            value: The value.
        """
        calls.append(value)
        return value

    bound = record(7)
    assert calls == []
    assert bound.bound == {"value": 7}
    assert "value" not in bound.parameters_schema["properties"]
    assert bound.run() == 7 and calls == [7]
    assert record.bound == {}, "binding returns a copy"


def test_run_validates_and_injects_env() -> None:
    assert click.run(env="E", elem=3) == "3:left:red:None:E"
    assert click.run(env="E", elem="4", color="blue").startswith("4:left:blue")


def test_run_passes_typed_values() -> None:
    seen: dict[str, Any] = {}

    @action
    def capture(points: list[Point], color: Color) -> None:
        """Capture typed values."""
        seen.update(points=points, color=color)

    capture.run(points=[{"x": 1, "y": 2}], color="blue")
    assert seen == {"points": [Point(x=1, y=2)], "color": Color.BLUE}


@pytest.mark.parametrize(
    ("arguments", "parameter", "problem"),
    [
        ({"elem": "x"}, "elem", "valid integer"),
        ({}, "elem", "missing"),
        ({"elem": 1, "button": "middle"}, "button", "left"),
        ({"elem": 1, "nope": 1}, "nope", "unexpected"),
        ({"elem": 1, "points": [{"x": 1}]}, "points", "points.0.y"),
    ],
)
def test_invalid_arguments_name_the_parameter(
    arguments: dict[str, Any], parameter: str, problem: str
) -> None:
    with pytest.raises(InvalidActionArguments) as info:
        click.run(env="E", **arguments)
    assert info.value.parameter == parameter
    assert problem in str(info.value)


def test_binding_validates_eagerly() -> None:
    with pytest.raises(InvalidActionArguments, match="elem"):
        click("not a number")
    with pytest.raises(InvalidActionArguments):
        click(1, 2, 3, 4, 5, 6, 7, 8)


def test_actions_needing_env_refuse_to_run_without_one() -> None:
    @action
    def needs(env: Any) -> None:
        """Needs an environment."""

    with pytest.raises(ConfigError, match="needs an environment"):
        needs.run()


def test_decorator_options_and_routing() -> None:
    @action(name="open-app", env="desktop", description="Open an app.")
    def open_app(name: str) -> str:
        return name

    assert open_app.name == "open-app" and open_app.env_name == "desktop"
    assert open_app.description == "Open an app."
    assert open_app.on("phone").env_name == "phone" and open_app.env_name == "desktop"


@pytest.mark.parametrize("bad", ["1abc", "has space", "x" * 65])
def test_invalid_tool_names_are_rejected(bad: str) -> None:
    with pytest.raises(ConfigError, match="not a valid tool name"):
        action(name=bad)(lambda: None)


def test_unannotated_and_variadic_parameters_are_rejected() -> None:
    def unannotated(x):  # type: ignore[no-untyped-def]
        return x

    def variadic(*items: int) -> None:
        return None

    with pytest.raises(ConfigError, match="no type annotation"):
        action(unannotated)
    with pytest.raises(ConfigError, match=r"\*items"):
        action(variadic)


def test_label_ref_and_json_arguments() -> None:
    bound = click(2, color=Color.BLUE)
    assert bound.label == "click(elem=2, color=<Color.BLUE: 'blue'>)"
    assert bound.json_arguments() == {"elem": 2, "color": "blue"}
    assert bound.ref == f"{__name__}:click"


class _Box:
    """A stand-in environment type for the annotation checks."""

    name = "box"


def test_the_env_annotation_is_checked_when_the_action_runs() -> None:
    from reefbench.errors import WrongEnvironment

    @action
    def open_box(env: _Box) -> str:
        """Open the box."""
        return "opened"

    assert open_box.env_type is _Box
    assert open_box.run(_Box()) == "opened"
    with pytest.raises(WrongEnvironment, match="'open_box' needs a _Box, got str"):
        open_box.run("a string")


def test_an_env_annotated_any_or_not_at_all_accepts_anything() -> None:
    @action
    def loose(env: Any) -> str:
        """Accept anything."""
        return "ok"

    @action
    def bare(env) -> str:  # type: ignore[no-untyped-def]
        """Accept anything."""
        return "ok"

    assert loose.env_type is None and bare.env_type is None
    assert loose.run(1) == bare.run("x") == "ok"


def test_an_env_annotation_that_does_not_resolve_is_one_config_error() -> None:
    def hidden(env: NotImportedHere) -> str:  # type: ignore[name-defined]  # noqa: F821
        """Names a type that only exists for type checkers."""
        return "never"

    with pytest.raises(ConfigError, match="cannot resolve the annotation of 'env'"):
        action(hidden)

    def not_a_class(env: list[int]) -> str:
        """Annotated with a generic alias, not a class."""
        return "never"

    with pytest.raises(ConfigError, match="must be annotated with an environment class"):
        action(not_a_class)


def test_annotated_limits_reach_the_schema_and_are_enforced() -> None:
    @action
    def scroll_by(amount: Annotated[int, Field(ge=1, le=50)]) -> str:
        """Scroll.

        Args:
            amount: Wheel steps.
        """
        return f"scrolled {amount}"

    schema = scroll_by.parameters_schema["properties"]["amount"]
    assert (schema["minimum"], schema["maximum"]) == (1, 50)
    assert scroll_by.run(amount=50) == "scrolled 50"
    with pytest.raises(InvalidActionArguments, match="amount"):
        scroll_by.run(amount=999)
