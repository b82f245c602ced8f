"""Model providers: one module per API, each with its official SDK imported lazily.

``make_provider("openai/gpt-4o")`` picks the module from the model string; importing this
package never imports an SDK.
"""

from reefbench.agents.providers.base import (
    ImagePart,
    Message,
    Pricing,
    Provider,
    ProviderError,
    ProviderOptions,
    ProviderReply,
    RetryPolicy,
    TextPart,
    ToolCall,
    ToolResultPart,
    ToolSpec,
)
from reefbench.agents.providers.registry import ModelSpec, make_provider, parse_model

__all__ = [
    "ImagePart",
    "Message",
    "ModelSpec",
    "Pricing",
    "Provider",
    "ProviderError",
    "ProviderOptions",
    "ProviderReply",
    "RetryPolicy",
    "TextPart",
    "ToolCall",
    "ToolResultPart",
    "ToolSpec",
    "make_provider",
    "parse_model",
]
