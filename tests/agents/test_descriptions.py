"""The environments a prompt lists: shared sentences once, every sentence still there.

Runs without starting a device: descriptions are read from unstarted environments.
"""

from __future__ import annotations

from collections import Counter

import pytest

from reefbench.actions.sets import ACTION_SETS
from reefbench.agents.descriptions import environments_text, sentences
from reefbench.environments.root import RootEnvironment
from reefbench.envs.registry import make_environment
from reefbench.perception.marks import FIELDS_SENTENCE, MARKS_SENTENCE, PIXELS_SENTENCE


def test_a_sentence_two_environments_share_is_written_once_naming_both() -> None:
    text = environments_text(
        {
            "laptop": "A laptop. Numbers are valid only for the latest screenshot. Type fast.",
            "tablet": "A tablet. Numbers are valid only for the latest screenshot.",
            "root": "Finish the task.",
        }
    )
    assert text.splitlines() == [
        "- laptop: A laptop. Type fast.",
        "- tablet: A tablet.",
        "- root: Finish the task.",
        "- laptop, tablet: Numbers are valid only for the latest screenshot.",
    ]


def test_nothing_shared_is_one_line_per_environment_as_given() -> None:
    text = environments_text({"a": "One  thing.\n Two things.", "b": "Other."})
    assert text == "- a: One thing. Two things.\n- b: Other."


def test_abbreviations_and_calls_do_not_cut_a_sentence() -> None:
    assert sentences("A toggle, e.g. (checked), shows. Use show_all() first. press('x') then.") == [
        "A toggle, e.g. (checked), shows.",
        "Use show_all() first. press('x') then.",
    ]


def _descriptions(action_set: str) -> dict[str, str]:
    envs = {name: make_environment(name) for name in ("desktop", "phone", "browser", "android")}
    described = {}
    for name, env in envs.items():
        # What an episode under the set does to the description (Environment._apply_set).
        text = env.description
        for old, new in env.action_set_descriptions.get(action_set, {}).items():
            text = text.replace(old, new)
        described[name] = text
    return {**described, "root": RootEnvironment().description}


@pytest.mark.parametrize("action_set", list(ACTION_SETS))
def test_every_sentence_of_every_device_reaches_the_prompt(action_set: str) -> None:
    descriptions = _descriptions(action_set)
    text = environments_text(descriptions)
    for name, description in descriptions.items():
        for sentence in sentences(description):
            assert sentence in text, (action_set, name, sentence)
    # ... and no sentence twice.
    said = Counter(s for line in text.splitlines() for s in sentences(line.split(": ", 1)[1]))
    assert max(said.values()) == 1


def test_the_marks_explanation_is_said_once_for_every_device_kind() -> None:
    text = environments_text(_descriptions("marks"))
    assert text.count(MARKS_SENTENCE) == 1
    assert text.count(FIELDS_SENTENCE) == 1
    shared = next(line for line in text.splitlines() if MARKS_SENTENCE in line)
    assert shared.startswith("- desktop, phone, browser, android: ")
    # What differs stays with its device: the phone's list format and its labels.
    assert "- phone: " in text and "'[id] class \"label\"'" in text
    assert "A field is named by its label." in text


def test_the_pixels_explanation_is_said_once_and_the_browser_keeps_its_tabs() -> None:
    text = environments_text(_descriptions("pixels"))
    assert text.count(PIXELS_SENTENCE) == 1 and "numbered boxes" not in text
    assert "It also lists the open tabs." in next(
        line for line in text.splitlines() if line.startswith("- browser: ")
    )
