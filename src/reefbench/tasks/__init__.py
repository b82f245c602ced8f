"""What a task is and how it is checked.

A :class:`~.task.Task` (:mod:`.task`) is an instruction, a graph of checkpoints
(:mod:`.graph`), setup and reference solutions; :mod:`.taskfile` reads and writes task
files. Templates (:mod:`.subtask`) are linked into tasks (:mod:`.link`). Scoring pieces a
task declares: answers compared deterministically (:mod:`.answers`), side effects beyond
what it may change (:mod:`.sideeffects`), and its one world clock (:mod:`.worldtime`).
"""
