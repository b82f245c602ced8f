"""The built-in cross-environment benchmark's source (suite v0 is it, synthesised).

A real Linux desktop (terminal, text editor, vim, settings, images), a phone (the
account's apps, settings, dialer) and a desktop browser, around one local cloud account.
Tasks are composed from a pool of subtask templates (:mod:`.templates`) by the compose
package's controlled synthesis (:mod:`.composed`) or assembled by hand (:mod:`.handmade`);
every one ships a reference solution played through the real action space, and the
validation gates (:mod:`reefbench.validation`, ``reef suite check``) prove each
solvable and non-trivial. The checks and setup actions templates share are in
:mod:`.checks`, :mod:`.scans` and :mod:`.photo_files`.

Loading this suite synthesises its tasks from today's code: it is the development view of
the templates. The published benchmark is reef-v1 (:mod:`reefbench.suites.v1`), the same
definitions frozen as data by ``reef suite freeze v1`` with ids derived from their
content; v0 ids are retired, so report scores on v1.
"""

from __future__ import annotations

from reefbench.benchmark.environments import make_environments
from reefbench.tasks.task import Task


def load() -> list[Task]:
    """Every task: handmade first (then those on seeded worlds), then composed (stable ids
    and order)."""
    from reefbench.benchmark import composed, handmade, world_tasks

    return handmade.load() + world_tasks.load() + composed.load()


__all__ = ["load", "make_environments"]
