"""Task composition: subtask templates joined into tasks with one graph evaluator.

Modules (import them directly; only :func:`compose_task` is re-exported so that
``import reefbench`` stays light):

* :mod:`.link` - join instantiated subtasks into one task (the GDT);
* :mod:`.pool` - load pools, index templates' slots, outputs and intents;
* :mod:`.lint` - check every template of a pool (``reef pool lint``);
* :mod:`.complexity` - OmniBench's five complexity dimensions and levels;
* :mod:`.topo` - count and enumerate topological orders (``successful_topo``);
* :mod:`.capabilities` - the ten capabilities of OmniBench Table 12;
* :mod:`.shapes` / :mod:`.synthesis` - controlled, deterministic synthesis (``reef compose``);
* :mod:`.canonical` - the digest that keeps synthesised tasks distinct;
* :mod:`.instructions` / :mod:`.consistency` / :mod:`.polish` - structure-preserving text,
  the consistency validator, and the hooks for model polishing and validation;
* :mod:`.stats` / :mod:`.draw` - ``reef tasks stats`` and ``reef tasks show --png``;
* :mod:`.demo` - the in-memory pool annotated for synthesis.
"""

from reefbench.compose.link import compose_task

__all__ = ["compose_task"]
