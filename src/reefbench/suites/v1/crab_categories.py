"""CRAB's application categories and the reef-v1 apps that cover each.

Issue 18 asks that reef-v1 cover every application category of CRAB's benchmark (its
Ubuntu and Android apps: terminal and system settings, file managers, LibreOffice, GIMP,
Firefox, code editors, mail/messages/contacts, calendar/tasks/notes/clock, maps). The
category names are ours, grouped from the apps CRAB's task data names
(``crab-benchmark-v0/dataset``); a subtask counts for a category by the app it uses
(``SubtaskInfo.app``), and every subtask played in the desktop browser also counts for
the web browser. ``bench/suite_difficulty.py`` prints the coverage and a test keeps the
README's mapping table and this one in step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from reefbench.tasks.task import SubtaskInfo, Task

WEB_BROWSER = "web browser"

CATEGORIES: Mapping[str, frozenset[str]] = {
    "terminal and system settings": frozenset(
        {"terminal", "settings", "desktop-settings", "appearance", "account", "launcher"}
    ),
    "file management": frozenset({"thunar", "files"}),
    "office": frozenset({"writer", "calc", "impress"}),
    "image editing": frozenset({"image-editor", "imagemagick", "gallery"}),
    WEB_BROWSER: frozenset(),
    "text and code editing": frozenset({"mousepad", "vim", "text editor"}),
    "communication": frozenset({"mail", "messages", "contacts", "dialer"}),
    "productivity": frozenset({"calendar", "tasks", "notes", "clock"}),
    "maps and navigation": frozenset({"maps"}),
}
"""CRAB category -> the ``app`` names of reef's subtask templates in it (the web browser
is every subtask whose device is the desktop browser)."""


def categories_of(subtask: SubtaskInfo) -> set[str]:
    """The CRAB categories one subtask covers (none for an app outside CRAB's)."""
    found = {name for name, apps in CATEGORIES.items() if subtask.app in apps}
    if subtask.env == "browser":
        found.add(WEB_BROWSER)
    return found


def coverage(tasks: Iterable[Task]) -> dict[str, int]:
    """CRAB category -> how many tasks have a subtask in it (every category listed)."""
    counts = dict.fromkeys(CATEGORIES, 0)
    for task in tasks:
        for name in set().union(*(categories_of(s) for s in task.metadata.subtasks)):
            counts[name] += 1
    return counts
