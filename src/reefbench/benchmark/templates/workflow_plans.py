"""Long workflows about plans and people (reef-v2, family 7): a time, a number or a name
is found in the mail, Files or a note and travels on to the calendar, the phone's
contacts, notes and messages, and a reply. One module a template (:mod:`.workflow_trip`,
:mod:`.workflow_handover`, :mod:`.workflow_minutes`); this one keeps the name reef-v2's
family list imports them by.
"""

from __future__ import annotations

from reefbench.benchmark.templates.workflow_handover import SUPPLIER_HANDOVER
from reefbench.benchmark.templates.workflow_minutes import MINUTES_FOLLOW_UP
from reefbench.benchmark.templates.workflow_trip import TRIP_PICKUP
from reefbench.tasks.subtask import SubTask

__all__ = ["MINUTES_FOLLOW_UP", "SUPPLIER_HANDOVER", "TEMPLATES", "TRIP_PICKUP"]

TEMPLATES: list[SubTask] = [TRIP_PICKUP, SUPPLIER_HANDOVER, MINUTES_FOLLOW_UP]
