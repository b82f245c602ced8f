"""uiautomator dumps (real recorded ones), their marks, and the XML evaluators over them."""

from __future__ import annotations

from pathlib import Path

import pytest

from reefbench.envs.ui import StaticScreen, parse_hierarchy
from reefbench.envs.ui.evaluators import (
    current_app,
    element_checked,
    element_count,
    element_selected,
    element_text,
    list_item_count,
    text_on_screen,
)
from reefbench.envs.ui.marks import ui_marks
from reefbench.errors import ActionFailed

DUMPS = Path("/work/shared/android")
if not DUMPS.exists():  # the fixtures live next to the repo on the build machine
    DUMPS = Path(__file__).resolve().parents[3].parent / "shared" / "android"
pytestmark = pytest.mark.skipif(not DUMPS.exists(), reason="recorded Android dumps not present")


def screen(name: str) -> StaticScreen:
    return StaticScreen.from_file(DUMPS / name)


@pytest.mark.parametrize(
    ("name", "package", "nodes"),
    [
        ("launcher_home_pixel.xml", "com.google.android.apps.nexuslauncher", 34),
        ("settings_home.xml", "com.android.settings", 59),
        ("gmail_inbox.xml", "com.google.android.gm", 43),
        ("maps_search_results.xml", "com.google.android.apps.maps", 179),
        ("maps_delete_timeline_dialog.xml", "com.google.android.apps.maps", 11),
        ("google_tasks_list_tablet.xml", "com.google.android.apps.tasks", 163),
        ("thunderbird_inbox.xml", "net.thunderbird.android", 27),
    ],
)
def test_every_recorded_dump_parses_with_its_foreground_app(name: str, package: str, nodes: int):
    shown = screen(name)
    assert sum(1 for _ in shown.hierarchy.iter()) == nodes
    assert shown.current_package() == package
    assert current_app(package=package).evaluate(shown).success
    assert not current_app(package="com.reef.mail").evaluate(shown).success


def test_uiautomator2_dump_keeps_window_roots_and_extra_attributes():
    tasks = screen("google_tasks_list_tablet.xml").hierarchy
    assert [r.package for r in tasks.roots][:1] == ["com.android.systemui"]
    assert tasks.size == (1600, 2560)
    node = next(n for n in tasks.iter() if "visible-to-user" in n.extra)
    assert node.extra["visible-to-user"] in ("true", "false")


def test_marks_number_actionable_nodes_once_with_readable_names():
    marks = ui_marks(screen("maps_delete_timeline_dialog.xml").hierarchy)
    assert [(m.role, m.name) for m in marks.marks.marks] == [
        ("CheckBox", "I understand and want to delete."),
        ("TextView", "Cancel"),
        ("TextView", "Delete"),
    ]
    assert marks.node(1) is not None and marks.node(1).flag("checked")
    assert marks.node(4) is None


def test_text_and_resource_id_evaluators_on_real_dumps():
    gmail = screen("gmail_inbox.xml")
    assert text_on_screen(text="Zimbra Test Email").evaluate(gmail).success
    assert text_on_screen(text="zimbra test", exact=False).evaluate(gmail).success
    assert (
        not text_on_screen(text="Zimbra Test Email", exact=True)
        .evaluate(screen("thunderbird_inbox.xml"))
        .success
    )
    compose = next(n for n in gmail.hierarchy.iter() if n.text == "Compose")
    assert element_text(resource_id=compose.id_name, text="Compose").evaluate(gmail).success
    wrong = element_text(resource_id=compose.resource_id, text="Send").evaluate(gmail)
    assert not wrong.success and "Compose" in wrong.message
    assert not element_text(resource_id="no_such_id", text="x").evaluate(gmail).success


def test_checked_and_selected_state_on_real_dumps():
    dialog = screen("maps_delete_timeline_dialog.xml")
    assert element_checked(text="I understand and want to delete.").evaluate(dialog).success
    assert (
        not element_checked(text="I understand and want to delete.", checked=False)
        .evaluate(dialog)
        .success
    )
    chips = screen("maps_search_results.xml")
    assert element_checked(content_desc="Vegetarian options").evaluate(chips).success or (
        element_checked(text="Vegetarian options").evaluate(chips).success
    )
    tasks = screen("google_tasks_list_tablet.xml")
    my_tasks = next(n for n in tasks.hierarchy.iter() if n.flag("selected"))
    label = my_tasks.content_desc or my_tasks.text
    assert (
        element_selected(content_desc=label).evaluate(tasks).success
        or element_selected(text=label).evaluate(tasks).success
    )
    assert not element_checked(text="Cancel").evaluate(dialog).success


def test_list_and_element_counts_on_a_real_dump():
    tasks = screen("google_tasks_list_tablet.xml")
    assert (
        element_count(count=18, text="Task ", class_name="TextView", compare="ge")
        .evaluate(tasks)
        .success
    )
    container = max(
        (n for n in tasks.hierarchy.iter() if n.resource_id),
        key=lambda n: len(n.children),
    )
    n = len(container.children)
    assert list_item_count(resource_id=container.resource_id, count=n).evaluate(tasks).success
    short = list_item_count(resource_id=container.resource_id, count=n + 2).evaluate(tasks)
    assert not short.success and short.progress == pytest.approx(n / (n + 2))


def test_malformed_and_hostile_dumps_are_refused_with_a_reason():
    with pytest.raises(ActionFailed, match="no <hierarchy>"):
        parse_hierarchy("ERROR: null root node returned by UiTestAutomationBridge.")
    with pytest.raises(ActionFailed, match="document type"):
        parse_hierarchy('<!DOCTYPE x [<!ENTITY a "b">]><hierarchy></hierarchy>')
    with pytest.raises(ActionFailed, match="well-formed"):
        parse_hierarchy("<hierarchy><node></hierarchy>")


def test_the_dump_preamble_adb_prints_is_ignored():
    text = (DUMPS / "thunderbird_inbox.xml").read_text()
    noisy = text + "\nUI hierchary dumped to: /dev/tty\n"
    assert len(list(parse_hierarchy(noisy).iter())) == 27
