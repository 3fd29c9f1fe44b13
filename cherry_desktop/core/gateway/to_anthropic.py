"""Into Anthropic's Messages dialect: an OpenAI chat-completions request (for an Anthropic
upstream), and an OpenAI reply, whole or streamed (for an Anthropic caller, Claude Code among
them, of an OpenAI-compatible upstream). Why it is written here: `to_openai`'s docstring.

OpenAI's ``tool`` messages become ``tool_result`` blocks of a user message; same-role
neighbours are merged (Anthropic alternates roles) and the list starts with a user message.
OpenAI-compatible reasoning (``reasoning_content`` / ``reasoning``) streams as a thinking block.
"""

from __future__ import annotations

import json
import uuid

from cherry_desktop.core.gateway.to_openai import UpstreamStreamError
from cherry_desktop.core.gateway.usage import Usage
from cherry_desktop.core.gateway.wire import Wire, WireObject

#: OpenAI finish_reason -> Anthropic stop_reason.
STOP_REASONS: dict[str, str] = {"stop": "end_turn", "length": "max_tokens", "tool_calls": "tool_use",
                                "function_call": "tool_use", "content_filter": "refusal"}
DEFAULT_MAX_TOKENS = 4096
_TOOL_CHOICES: dict[str, WireObject] = {"auto": {"type": "auto"}, "required": {"type": "any"},
                                            "none": {"type": "none"}}

#: An Anthropic stream event: (event name, data).
Event = tuple[str, WireObject]


def _text(content: Wire) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text") or "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def image_block(part: WireObject) -> WireObject | None:
    """An OpenAI ``image_url`` part as an Anthropic image block (data URLs inline, others by URL)."""
    url = str((part.get("image_url") or {}).get("url") or "")
    if url.startswith("data:"):
        header, _, data = url.partition(",")
        media_type = header[len("data:"):].split(";")[0] or "image/png"
        return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}
    if url:
        return {"type": "image", "source": {"type": "url", "url": url}}
    return None


def _content_blocks(content: Wire) -> list[WireObject]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    blocks: list[WireObject] = []
    for part in content if isinstance(content, list) else []:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "text" and part.get("text"):
            blocks.append({"type": "text", "text": str(part["text"])})
        elif part.get("type") == "image_url":
            image = image_block(part)
            if image is not None:
                blocks.append(image)
    return blocks


def _tool_input(arguments: Wire) -> Wire:
    if isinstance(arguments, dict):
        return arguments
    try:
        value = json.loads(arguments or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _message_blocks(message: WireObject) -> tuple[str, list[WireObject]]:
    role = message.get("role")
    if role == "tool":
        return "user", [{"type": "tool_result", "tool_use_id": str(message.get("tool_call_id") or ""),
                         "content": _text(message.get("content"))}]
    blocks = _content_blocks(message.get("content"))
    if role == "assistant":
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            blocks.append({"type": "tool_use", "id": str(call.get("id") or _tool_id()),
                           "name": str(function.get("name") or ""), "input": _tool_input(function.get("arguments"))})
        return "assistant", blocks
    return "user", blocks


def anthropic_tools(tools: Wire) -> list[WireObject]:
    out = []
    for tool in tools if isinstance(tools, list) else []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(function, dict):
            continue
        converted: WireObject = {"name": str(function.get("name") or ""),
                                     "input_schema": function.get("parameters") or {"type": "object",
                                                                                   "properties": {}}}
        if function.get("description"):
            converted["description"] = str(function["description"])
        out.append(converted)
    return out


def anthropic_tool_choice(choice: Wire, parallel: Wire) -> WireObject | None:
    if isinstance(choice, dict) and choice.get("type") == "function":
        out: WireObject | None = {"type": "tool", "name": str((choice.get("function") or {}).get("name") or "")}
    else:
        out = dict(_TOOL_CHOICES[choice]) if isinstance(choice, str) and choice in _TOOL_CHOICES else None
    if parallel is False:
        out = {**(out or {"type": "auto"}), "disable_parallel_tool_use": True}
    return out


def anthropic_request(body: WireObject, model: str) -> WireObject:
    """An OpenAI chat-completions body as an Anthropic Messages body for `model`."""
    system: list[str] = []
    messages: list[WireObject] = []
    for message in body.get("messages") or []:
        if not isinstance(message, dict):
            continue
        if message.get("role") in ("system", "developer"):
            system.append(_text(message.get("content")))
            continue
        role, blocks = _message_blocks(message)
        if not blocks:
            continue
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].extend(blocks)
        else:
            messages.append({"role": role, "content": blocks})
    while messages and messages[0]["role"] != "user":
        messages.pop(0)
    max_tokens = body.get("max_completion_tokens") or body.get("max_tokens") or DEFAULT_MAX_TOKENS
    out: WireObject = {"model": model, "messages": messages, "max_tokens": int(max_tokens)}
    if any(system):
        out["system"] = "\n\n".join(s for s in system if s)
    if body.get("temperature") is not None:
        out["temperature"] = min(float(body["temperature"]), 1.0)
    if body.get("top_p") is not None:
        out["top_p"] = body["top_p"]
    stop = body.get("stop")
    if stop:
        out["stop_sequences"] = [stop] if isinstance(stop, str) else list(stop)
    tools = anthropic_tools(body.get("tools"))
    if tools:
        out["tools"] = tools
        choice = anthropic_tool_choice(body.get("tool_choice"), body.get("parallel_tool_calls"))
        if choice is not None:
            out["tool_choice"] = choice
    if body.get("user"):
        out["metadata"] = {"user_id": str(body["user"])}
    if body.get("stream"):
        out["stream"] = True
    return out


def _tool_id() -> str:
    return f"toolu_{uuid.uuid4().hex[:24]}"


def anthropic_message(completion: WireObject, model: str, message_id: str) -> WireObject:
    """A whole OpenAI ``chat.completion`` as an Anthropic message."""
    choice = (completion.get("choices") or [{}])[0]
    message = choice.get("message") or {}
    content: list[WireObject] = []
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    if isinstance(reasoning, str) and reasoning:
        content.append({"type": "thinking", "thinking": reasoning, "signature": ""})
    _, blocks = _message_blocks({**message, "role": "assistant"})
    content.extend(blocks)
    usage = Usage()
    usage.update_from_openai(completion.get("usage"))
    return {"id": message_id, "type": "message", "role": "assistant", "model": model, "content": content,
            "stop_reason": STOP_REASONS.get(str(choice.get("finish_reason")), "end_turn"),
            "stop_sequence": None, "usage": usage.anthropic()}


class AnthropicStreamWriter:
    """OpenAI ``chat.completion.chunk`` objects in, Anthropic stream events out.

    Blocks open in the order their content arrives (reasoning, text, each tool call); a block
    is closed when another kind starts. `finish()` closes the message once the upstream ended
    (``[DONE]`` or the body's end) and raises `UpstreamStreamError` when it never finished.
    """

    def __init__(self, model: str, message_id: str) -> None:
        self.model = model
        self.message_id = message_id
        self.usage = Usage()
        self.finish_reason: str | None = None
        self._started = False
        self._next_index = 0
        self._open: tuple[str, int] | None = None  # (kind: "thinking" | "text" | "tool:<n>", index)
        self._tools: dict[int, int] = {}

    def _start(self) -> list[Event]:
        if self._started:
            return []
        self._started = True
        message: WireObject = {"id": self.message_id, "type": "message", "role": "assistant", "model": self.model,
                   "content": [], "stop_reason": None, "stop_sequence": None,
                   "usage": {"input_tokens": 0, "output_tokens": 0}}
        return [("message_start", {"type": "message_start", "message": message})]

    def _close(self) -> list[Event]:
        if self._open is None:
            return []
        index = self._open[1]
        self._open = None
        return [("content_block_stop", {"type": "content_block_stop", "index": index})]

    def _open_block(self, kind: str, block: WireObject) -> tuple[list[Event], int]:
        if self._open is not None and self._open[0] == kind:
            return [], self._open[1]
        events = self._close()
        index = self._next_index
        self._next_index += 1
        self._open = (kind, index)
        events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                               "content_block": block}))
        return events, index

    def _delta(self, index: int, delta: WireObject) -> Event:
        return "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}

    def feed(self, chunk: WireObject) -> list[Event]:
        if chunk.get("error"):
            error = chunk["error"]
            message = str(error.get("message") or error) if isinstance(error, dict) else str(error)
            raise UpstreamStreamError(str(error.get("type") or "api_error") if isinstance(error, dict)
                                      else "api_error", message)
        events = self._start()
        if isinstance(chunk.get("usage"), dict):
            self.usage.update_from_openai(chunk["usage"])
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            reasoning = delta.get("reasoning_content") or delta.get("reasoning")
            if isinstance(reasoning, str) and reasoning:
                opened, index = self._open_block("thinking", {"type": "thinking", "thinking": "", "signature": ""})
                events += [*opened, self._delta(index, {"type": "thinking_delta", "thinking": reasoning})]
            content = delta.get("content")
            if isinstance(content, str) and content:
                opened, index = self._open_block("text", {"type": "text", "text": ""})
                events += [*opened, self._delta(index, {"type": "text_delta", "text": content})]
            for call in delta.get("tool_calls") or []:
                events += self._tool_call(call)
            if choice.get("finish_reason"):
                self.finish_reason = str(choice["finish_reason"])
        return events

    def _tool_call(self, call: WireObject) -> list[Event]:
        position = int(call.get("index") or 0)
        function = call.get("function") or {}
        events: list[Event] = []
        if position not in self._tools:
            block = {"type": "tool_use", "id": str(call.get("id") or _tool_id()),
                     "name": str(function.get("name") or ""), "input": {}}
            opened, index = self._open_block(f"tool:{position}", block)
            self._tools[position] = index
            events += opened
        arguments = function.get("arguments")
        if isinstance(arguments, str) and arguments:
            events.append(self._delta(self._tools[position], {"type": "input_json_delta", "partial_json": arguments}))
        return events

    def finish(self, *, done: bool) -> list[Event]:
        """The upstream ended; `done`: it sent ``[DONE]``."""
        if self.finish_reason is None and not done:
            raise UpstreamStreamError("api_error", "the upstream stream ended before the reply was complete")
        events = [*self._start(), *self._close()]
        stop = STOP_REASONS.get(str(self.finish_reason), "end_turn")
        events.append(("message_delta", {"type": "message_delta",
                                         "delta": {"stop_reason": stop, "stop_sequence": None},
                                         "usage": self.usage.anthropic()}))
        events.append(("message_stop", {"type": "message_stop"}))
        return events


def anthropic_error(error_type: str, message: str) -> WireObject:
    """An Anthropic error body (also the data of a stream's ``error`` event)."""
    return {"type": "error", "error": {"type": error_type, "message": message}}


__all__ = ["STOP_REASONS", "AnthropicStreamWriter", "Event", "anthropic_error", "anthropic_message",
           "anthropic_request", "anthropic_tool_choice", "anthropic_tools"]
