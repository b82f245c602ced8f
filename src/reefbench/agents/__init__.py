"""Agents: the protocol, the built-in agents that need no model, and the agent systems
(single, multi-agent by functionality, multi-agent by environment) over model providers.

Provider SDKs are imported only when a provider is created (:mod:`.providers`).
"""

from reefbench.actions.spec import ActionCall
from reefbench.agents.builtin import HumanAgent, RandomAgent, ReplayAgent
from reefbench.agents.observation import (
    DEFAULT_OBSERVE,
    OBSERVATION_POLICIES,
    ObservationPolicy,
    get_observation_policy,
)
from reefbench.agents.policies import (
    POLICIES,
    ByEnvironmentAgent,
    ByFunctionAgent,
    ModelSettings,
    SingleAgent,
    policy_factory,
)
from reefbench.agents.prompts import Prompts
from reefbench.agents.scripted import NullAgent, OracleAgent, ScriptedAgent
from reefbench.episodes.protocol import Agent, AgentOutput, CallResult, Turn, Usage

__all__ = [
    "DEFAULT_OBSERVE",
    "OBSERVATION_POLICIES",
    "POLICIES",
    "ActionCall",
    "Agent",
    "AgentOutput",
    "ByEnvironmentAgent",
    "ByFunctionAgent",
    "CallResult",
    "HumanAgent",
    "ModelSettings",
    "NullAgent",
    "ObservationPolicy",
    "OracleAgent",
    "Prompts",
    "RandomAgent",
    "ReplayAgent",
    "ScriptedAgent",
    "SingleAgent",
    "Turn",
    "Usage",
    "get_observation_policy",
    "policy_factory",
]
