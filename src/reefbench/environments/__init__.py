"""What every environment shares, whatever its kind (the kinds are in ``reefbench.envs``).

The contract (:mod:`.contract`: :class:`~.contract.Environment`, lifecycle, ``step``,
``observe``, state snapshots), the root environment every episode has (:mod:`.root`),
screen coordinates and pointer ops (:mod:`.pointer`), element names to marks
(:mod:`.grounding`) and the cache of seeded worlds (:mod:`.worlds`).
"""
