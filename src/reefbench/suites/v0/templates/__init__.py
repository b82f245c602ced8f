"""reef-v0's subtask pool, one module per platform (``reef pool lint
reefbench.suites.v0.templates:POOL``)."""

from __future__ import annotations

from reefbench.subtask import SubTask
from reefbench.suites.v0.templates import browser, cross, desktop, office2, phone

POOL: dict[str, SubTask] = {
    t.id: t for module in (desktop, phone, browser, cross, office2) for t in module.TEMPLATES
}
BY_PLATFORM: dict[str, list[str]] = {
    "desktop": [t.id for t in (*desktop.TEMPLATES, *office2.TEMPLATES)],
    "phone": [t.id for t in phone.TEMPLATES],
    "browser": [t.id for t in browser.TEMPLATES],
    "cross": [t.id for t in cross.TEMPLATES],
}
