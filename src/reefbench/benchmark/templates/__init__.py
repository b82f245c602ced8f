"""reef-v0's subtask pool, one module per platform (``reef pool lint
reefbench.benchmark.templates:POOL``)."""

from __future__ import annotations

from reefbench.benchmark.templates import (
    appearance,
    browser,
    cross,
    desktop,
    expense_report,
    gallery,
    phone,
    phonephoto,
    photoedit,
    session,
    world,
)
from reefbench.tasks.subtask import SubTask

POOL: dict[str, SubTask] = {
    t.id: t
    for module in (
        desktop,
        phone,
        browser,
        cross,
        gallery,
        world,
        session,
        expense_report,
        appearance,
        photoedit,
        phonephoto,
    )
    for t in module.TEMPLATES
}
BY_PLATFORM: dict[str, list[str]] = {
    "desktop": [t.id for t in (*desktop.TEMPLATES, *session.TEMPLATES, *expense_report.TEMPLATES)],
    "phone": [t.id for t in phone.TEMPLATES],
    "browser": [t.id for t in browser.TEMPLATES],
    "cross": [t.id for t in cross.TEMPLATES] + [t.id for t in gallery.TEMPLATES],
    "appearance": [t.id for t in appearance.TEMPLATES],
    "world": [t.id for t in world.TEMPLATES],
    "photoedit": [t.id for t in (*photoedit.TEMPLATES, *phonephoto.TEMPLATES)],
}
