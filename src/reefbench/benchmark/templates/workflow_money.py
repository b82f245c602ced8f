"""Long workflows about money (reef-v2, family 7): a figure is computed from a file or a
thread and then travels on through a reply, a text from the phone, an event and a to-do.
One module a template (:mod:`.workflow_invoice`, :mod:`.workflow_lunch`); this one keeps
the name reef-v2's family list imports them by.
"""

from __future__ import annotations

from reefbench.benchmark.templates.workflow_invoice import INVOICE_REVIEW
from reefbench.benchmark.templates.workflow_lunch import LUNCH_ORDER
from reefbench.tasks.subtask import SubTask

__all__ = ["INVOICE_REVIEW", "LUNCH_ORDER", "TEMPLATES"]

TEMPLATES: list[SubTask] = [INVOICE_REVIEW, LUNCH_ORDER]
