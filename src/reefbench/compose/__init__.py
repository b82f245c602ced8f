"""Task composition: subtask templates joined into tasks with one graph evaluator.

Modules (import them directly, nothing is re-exported here; linking subtasks into one task,
:func:`reefbench.compose_task`, is core vocabulary and lives in :mod:`reefbench.tasks.link`):

* :mod:`.pool` - load pools, index templates' slots, outputs and intents;
* :mod:`.lint` - check every template of a pool (``reef pool lint``);
* :mod:`.complexity` - OmniBench's five complexity dimensions and levels;
* :mod:`.topo` - count and enumerate topological orders (``successful_topo``);
* :mod:`.capabilities` - the ten capabilities of OmniBench Table 12;
* :mod:`.shapes` / :mod:`.synthesis` - controlled, deterministic synthesis (``reef compose``);
* :mod:`.canonical` - the digest that keeps synthesised tasks distinct;
* :mod:`.instructions` / :mod:`.consistency` - structure-preserving text and the
  consistency validator that parses the dependencies back;
* :mod:`.stats` / :mod:`.draw` - ``reef tasks stats`` and ``reef tasks show --png``;
"""
