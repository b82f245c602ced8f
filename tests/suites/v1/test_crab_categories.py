"""reef-v1 covers every CRAB application category, and the README's table says which apps."""

from __future__ import annotations

import re
from pathlib import Path

from reefbench.suites import get_suite
from reefbench.suites.v1.crab_categories import CATEGORIES, WEB_BROWSER, categories_of, coverage
from reefbench.tasks.task import SubtaskInfo

README = Path(__file__).resolve().parents[3] / "README.md"


def test_every_crab_category_has_reef_v1_tasks() -> None:
    counts = coverage(get_suite("v1").load())
    assert [name for name, n in counts.items() if n == 0] == []


def test_a_subtask_counts_by_its_app_and_the_browser_by_its_device() -> None:
    mail_in_browser = SubtaskInfo(
        id="s0", template="browser.send_mail", app="mail", env="browser", nodes=[]
    )
    assert categories_of(mail_in_browser) == {"communication", WEB_BROWSER}
    unknown = SubtaskInfo(id="s1", template="x", app="solitaire", env="desktop", nodes=[])
    assert categories_of(unknown) == set()


def test_the_readme_table_lists_each_category_with_its_apps() -> None:
    rows = {
        cells[0]: cells
        for line in README.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    for name, apps in CATEGORIES.items():
        assert name in rows, f"README's CRAB table has no row '{name}'"
        listed = set(re.findall(r"`([^`]+)`", rows[name][2]))
        assert listed == set(apps) or (not apps and "browser" in rows[name][2]), (name, listed)
