"""Validation of a suite's tasks: proof that each is solvable and non-trivial.

The gates (:mod:`.gates`: reference and alternative solutions succeed, the null agent
completes nothing, checkpoints are deterministic, near misses fail, an earlier subtask's
work must survive), the instruction lint (:mod:`.lint`), the device and app phrases an
instruction may name (:mod:`.devices`) and the undone-state case (:mod:`.end_state_case`).
They run on any suite with a subtask pool (``reef suite check --suite NAME``); their
vocabulary is the built-in benchmark's (its devices' actions, its people records).
"""
