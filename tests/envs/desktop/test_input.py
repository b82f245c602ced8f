"""What the desktop's input sends to xdotool: a synced move to where the pointer already
is waits for a motion that never comes, so it is never sent."""

from __future__ import annotations

from itertools import pairwise

import pytest

from reefbench.envs.desktop.input import DRAG_DROP_S, MIXED_DELAY_MS, REMAP_DELAY_MS, Input


class Recorder(Input):
    def __init__(self, at: tuple[int, int] | None) -> None:
        super().__init__({})
        self.at = at
        self.sent: list[list[str]] = []

    def pointer(self) -> tuple[int, int] | None:
        return self.at

    def _run(self, *args: str) -> None:
        self.sent.append(list(args))


def synced_targets(words: list[str]) -> list[tuple[int, int]]:
    return [
        (int(words[i + 2]), int(words[i + 3]))
        for i, w in enumerate(words)
        if w == "mousemove" and words[i + 1] == "--sync"
    ]


@pytest.mark.parametrize("op", ["move", "click"])
def test_no_synced_move_to_where_the_pointer_already_is(op: str) -> None:
    here = Recorder(at=(640, 400))
    getattr(here, op)(640, 400)
    assert synced_targets(here.sent[0]) == []
    assert here.sent[0][:3] == ["mousemove", "640", "400"]
    elsewhere = Recorder(at=(10, 10))
    getattr(elsewhere, op)(640, 400)
    assert synced_targets(elsewhere.sent[0]) == [(640, 400)]


def test_a_short_drag_never_syncs_on_the_point_it_is_at() -> None:
    for start, end in (((100, 100), (110, 110)), ((100, 100), (105, 105)), ((5, 5), (400, 9))):
        drag = Recorder(at=(0, 0))
        drag.drag(start, end)
        points = [(0, 0), *synced_targets(drag.sent[0])]  # from where the pointer is
        assert all(a != b for a, b in pairwise(points)), points
        assert points[-1] == end or start == end


def test_a_click_or_a_key_leaves_no_dead_time_after_it() -> None:
    # xdotool sleeps --delay after every click (100 ms by default) and between a chord's
    # key events (12 ms): the settle wait after an action watches the screen instead.
    sent = Recorder(at=(0, 0))
    sent.click(10, 10)
    sent.press(["ctrl", "s"])
    sent.type_text("abc")
    for words in sent.sent:
        assert words[words.index("--delay") + 1] == "0", words
    double = Recorder(at=(0, 0))
    double.click(10, 10, repeat=2)
    words = double.sent[0]
    assert words[words.index("--delay") + 1] == "60"  # a double click's two clicks


def test_a_text_with_characters_outside_the_keymap_is_paced_throughout() -> None:
    # An app still working through a burst of keymap characters when xdotool remaps its
    # spare keycode dropped the first remapped one ("TAB ünï" arrived as "TAB nï").
    sent = Recorder(at=(0, 0))
    sent.type_text("TAB ünï x")
    delays = [int(w[w.index("--delay") + 1]) for w in sent.sent]
    assert delays == [MIXED_DELAY_MS, REMAP_DELAY_MS] * 2 + [MIXED_DELAY_MS]


def test_a_drag_rests_on_its_target_before_the_release() -> None:
    # A drag-and-drop target accepts a drop only after answering the position messages:
    # released on arrival, Calc's pivot table layout took no field.
    drag = Recorder(at=(0, 0))
    drag.drag((100, 100), (400, 300))
    words = drag.sent[0]
    release = words.index("mouseup")
    assert words[release - 2 : release] == ["sleep", DRAG_DROP_S]
    assert synced_targets(words[:release])[-1] == (400, 300)
