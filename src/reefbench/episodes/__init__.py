"""One agent on one task: the episode and what drives and measures it.

The agent protocol (:mod:`.protocol`), the episode (:mod:`.episode`), an episode driven
from outside one turn at a time (:mod:`.bridge`) and its Gymnasium adapter (:mod:`.gym`),
and the metrics of episode results (:mod:`.metrics`).
"""
