"""What the runner does after an episode: retry it, and replace its environments?

Shared by the local workers (:mod:`.engine`) and the Ray actors (:mod:`.ray_executor`), so
both decide the same way and neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping

from reefbench.environments.contract import Environment
from reefbench.episodes.episode import EpisodeResult

# Infrastructure outcomes worth another attempt (an aborted run is not retried).
RETRYABLE = frozenset({"agent_error", "env_error", "evaluator_error"})


def needs_new_environments(result: EpisodeResult, envs: Mapping[str, Environment] | None) -> bool:
    """After an env_error, or another infrastructure failure that left an environment
    unhealthy (an evaluator that found its server dead), the environments are replaced, so
    the fault does not spill over into the next episode."""
    if result.termination == "env_error":
        return True
    if result.termination not in RETRYABLE or envs is None:
        return False
    for env in envs.values():
        try:
            if not env.health():
                return True
        except Exception:  # a health probe that crashes means: unhealthy
            return True
    return False
