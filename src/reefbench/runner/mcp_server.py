"""One episode as an MCP server (the official ``mcp`` SDK), so any MCP-capable agent can be
benchmarked and stored in the same run format.

(This module imports the SDK at import time; it is only imported to serve. Install the
``mcp`` extra: ``pip install 'reefbench[mcp]'``.)

What the client sees:

* **tools**: every environment's actions under the names function-calling agents get
  (``laptop__write_file``, ``root__complete``), with the same parameter schemas; one tool
  call is one step of the episode, scored by the task's graph evaluator after it runs.
* **resources**: ``reef://task`` (the instruction), ``reef://observation/<env>/<name>``
  (the current observations; screenshots are PNG blobs) and, once the episode has ended,
  ``reef://result`` (the stored result, JSON).
* **prompts**: ``task`` (the instruction, the environments and the rules, with the current
  observation) and ``observation`` (the current observation alone; screenshots as images).

The episode ends when every checkpoint holds, at the step limit, after too many invalid
calls, or when the client calls ``root__complete``, ``root__submit`` or
``root__infeasible``.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import anyio.to_thread
import mcp_types as types
from mcp.server import Server
from mcp.server.context import ServerRequestContext

from reefbench import __version__
from reefbench.agents.images import image_mime
from reefbench.agents.providers.base import parameters_schema
from reefbench.plumbing.net import RequireBearer
from reefbench.runner.served_episode import ServedEpisode

TASK_URI = "reef://task"
RESULT_URI = "reef://result"
OBSERVATION_URI = "reef://observation/"
MCP_PATH = "/mcp"

RULES = (
    "Act with the tools: each tool is one action on one environment (its name starts with "
    "the environment, e.g. laptop__write_file), and each call is one step. The task is "
    "scored by checkpoints after every call; the episode ends by itself when all of them "
    "hold. Call root__complete when the task is done, or root__submit with the answer when "
    "the task asks a question; if what the task asks for does not exist or cannot be done "
    "here, call root__infeasible with the reason. Read the observation prompt or the "
    "reef://observation "
    "resources to see the environments."
)


def create_server(episode: ServedEpisode) -> Server[Any]:
    """The MCP server of a started :class:`ServedEpisode`: its tools (the actions),
    resources (task, observations, result) and prompts, each group's handlers built by
    :func:`_tool_handlers`, :func:`_resource_handlers` and :func:`_prompt_handlers`."""
    return Server(
        "reefbench",
        version=__version__,
        instructions=f"{episode.task.instruction}\n\n{RULES}",
        **_tool_handlers(episode),
        **_resource_handlers(episode),
        **_prompt_handlers(episode),
    )


def _tool_handlers(episode: ServedEpisode) -> dict[str, Any]:
    """``tools/list`` (the episode's actions with their JSON schemas) and ``tools/call``
    (one action played as a step of the episode), as :class:`Server` keyword arguments."""

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        toolbox = episode.toolbox
        specs = toolbox.specs if toolbox is not None else []
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=spec.name,
                    description=spec.description,
                    input_schema=parameters_schema(spec.action) if spec.action else _EMPTY,
                )
                for spec in specs
            ]
        )

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        arguments = dict(params.arguments or {})
        # The episode blocks (environments act, evaluators check): off the event loop.
        text, failed = await anyio.to_thread.run_sync(episode.call, params.name, arguments)
        return types.CallToolResult(content=[types.TextContent(text=text)], is_error=failed)

    return {"on_list_tools": list_tools, "on_call_tool": call_tool}


def _resource_handlers(episode: ServedEpisode) -> dict[str, Any]:
    """``resources/list`` and ``resources/read``: the task's instruction, every current
    observation, and the stored result once the episode has ended."""

    async def list_resources(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        resources = [
            types.Resource(
                uri=TASK_URI, name="task", description="The instruction", mime_type="text/plain"
            )
        ]
        for env, name, value in _observations(episode):
            resources.append(
                types.Resource(
                    uri=f"{OBSERVATION_URI}{env}/{name}",
                    name=f"{env} {name}",
                    description=f"The current '{name}' observation of the {env}",
                    mime_type=_mime(value),
                )
            )
        if episode.result is not None:
            resources.append(
                types.Resource(
                    uri=RESULT_URI,
                    name="result",
                    description="The episode's stored result",
                    mime_type="application/json",
                )
            )
        return types.ListResourcesResult(resources=resources)

    async def read_resource(
        ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == TASK_URI:
            return _text_resource(uri, episode.task.instruction, "text/plain")
        result = episode.result
        if uri == RESULT_URI and result is not None:
            text = result.model_dump_json(exclude={"trajectory"}, indent=2)
            return _text_resource(uri, text, "application/json")
        for env, name, value in _observations(episode):
            if uri == f"{OBSERVATION_URI}{env}/{name}":
                return _value_resource(uri, value)
        raise ValueError(f"no resource {uri} (list the resources to see what exists now)")

    return {"on_list_resources": list_resources, "on_read_resource": read_resource}


def _prompt_handlers(episode: ServedEpisode) -> dict[str, Any]:
    """``prompts/list`` and ``prompts/get``: ``task`` (instruction, environments, rules and
    the current observations) and ``observation`` (the current observations only)."""

    async def list_prompts(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name="task",
                    description="The instruction, the environments, the rules and what "
                    "the environments show now",
                ),
                types.Prompt(name="observation", description="What the environments show now"),
            ]
        )

    async def get_prompt(
        ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        if params.name not in ("task", "observation"):
            raise ValueError(f"no prompt {params.name!r} (prompts: task, observation)")
        messages = []
        if params.name == "task":
            envs = "\n".join(
                f"- {name}: {text}" for name, text in episode.driver.agent.descriptions.items()
            )
            intro = f"{episode.task.instruction}\n\nEnvironments:\n{envs}\n\n{RULES}"
            messages.append(_user(types.TextContent(text=intro)))
        messages.extend(_user(block) for block in observation_blocks(episode))
        return types.GetPromptResult(messages=messages)

    return {"on_list_prompts": list_prompts, "on_get_prompt": get_prompt}


def create_app(episode: ServedEpisode, token: str, host: str = "127.0.0.1") -> Any:
    """The streamable-HTTP ASGI app at ``/mcp``, refusing requests without the token.

    Serve it with ``lifespan="on"``: the SDK's session manager runs there. ``host`` is the
    bound address; on loopback the SDK also checks Host and Origin (DNS rebinding).
    """
    app = create_server(episode).streamable_http_app(streamable_http_path=MCP_PATH, host=host)
    return RequireBearer(app, token, "MCP server")


async def serve_stdio(episode: ServedEpisode) -> None:
    """Serve over the process's stdin and stdout until the client closes them."""
    from mcp.server.stdio import stdio_server

    server = create_server(episode)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def observation_blocks(episode: ServedEpisode) -> list[types.TextContent | types.ImageContent]:
    """The current observations as content: a heading and text per value, images as such."""
    blocks: list[types.TextContent | types.ImageContent] = []
    turn = episode.turn
    if turn is None:
        return [types.TextContent(text="The episode has ended; read reef://result.")]
    blocks.append(
        types.TextContent(text=f"Step {turn.step} of at most {episode.driver.episode.step_limit}.")
    )
    for env, name, value in _observations(episode):
        mime = _mime(value)
        if mime.startswith("image/"):
            blocks.append(types.TextContent(text=f"{env} {name}:"))
            data = base64.b64encode(bytes(value)).decode("ascii")
            blocks.append(types.ImageContent(data=data, mime_type=mime))
        else:
            blocks.append(types.TextContent(text=f"{env} {name}:\n{_as_text(value)}"))
    return blocks


_EMPTY: dict[str, Any] = {"type": "object", "properties": {}}


def _observations(episode: ServedEpisode) -> list[tuple[str, str, Any]]:
    turn = episode.turn
    if turn is None:
        return []
    return [
        (env, name, value)
        for env, values in turn.observations.items()
        for name, value in values.items()
    ]


def _mime(value: Any) -> str:
    if isinstance(value, bytes | bytearray):
        return image_mime(bytes(value)) or "application/octet-stream"
    if isinstance(value, str):
        return "text/plain"
    return "application/json"


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def _text_resource(uri: str, text: str, mime: str) -> types.ReadResourceResult:
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, text=text, mime_type=mime)]
    )


def _value_resource(uri: str, value: Any) -> types.ReadResourceResult:
    mime = _mime(value)
    if isinstance(value, bytes | bytearray):
        blob = base64.b64encode(bytes(value)).decode("ascii")
        return types.ReadResourceResult(
            contents=[types.BlobResourceContents(uri=uri, blob=blob, mime_type=mime)]
        )
    return _text_resource(uri, _as_text(value), mime)


def _user(block: types.TextContent | types.ImageContent) -> types.PromptMessage:
    return types.PromptMessage(role="user", content=block)
