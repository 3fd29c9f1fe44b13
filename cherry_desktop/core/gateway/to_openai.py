"""Into OpenAI's chat-completions dialect: an Anthropic Messages request (for an OpenAI-compatible
upstream), and an Anthropic reply, whole or streamed (for an OpenAI caller of an Anthropic
upstream).

Written here rather than taken from a library: the one well-kept library that translates both
ways with streaming (litellm 1.110) installs 380 MB with its dependencies, costs 8 s and 184 MB
to import here (and tries to fetch a price list from the internet while importing), and calls
upstreams with its own clients; the gateway must call them through Cherry's provider records
and keyring, and count usage once itself. What is mapped: text,
system, images, tool definitions and choice, tool calls with their streamed arguments, tool
results, stop reasons, usage, and reasoning (OpenAI-compatible servers' ``reasoning_content``).
Thinking blocks in a request's history are dropped: an OpenAI upstream has no place for them.
"""

from __future__ import annotations

import json

from cherry_desktop.core.gateway.usage import Usage
from cherry_desktop.core.gateway.wire import Wire, WireObject

#: Anthropic stop_reason -> OpenAI finish_reason.
FINISH_REASONS: dict[str, str] = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length",
                                  "tool_use": "tool_calls", "pause_turn": "stop", "refusal": "content_filter"}
_TOOL_CHOICES: dict[str, str] = {"auto": "auto", "any": "required", "none": "none"}


class UpstreamStreamError(Exception):
    """The upstream's stream said it failed (an ``error`` event or chunk), or ended early."""

    def __init__(self, error_type: str, message: str) -> None:
        super().__init__(f"{error_type}: {message}")
        self.error_type = error_type
        self.message = message


def _blocks(content: Wire) -> list[WireObject]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _text_of(content: Wire) -> str:
    return "".join(str(b.get("text") or "") for b in _blocks(content) if b.get("type") == "text")


def image_part(block: WireObject) -> WireObject | None:
    """An Anthropic image block as an OpenAI ``image_url`` part."""
    source = block.get("source") or {}
    if source.get("type") == "base64":
        url = f"data:{source.get('media_type')};base64,{source.get('data')}"
    elif source.get("type") == "url":
        url = str(source.get("url"))
    else:
        return None
    return {"type": "image_url", "image_url": {"url": url}}


def _user_parts(blocks: list[WireObject]) -> list[WireObject]:
    parts: list[WireObject] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "text":
            parts.append({"type": "text", "text": str(block.get("text") or "")})
        elif kind == "image":
            image = image_part(block)
            if image is not None:
                parts.append(image)
        elif kind == "document" and (block.get("source") or {}).get("type") == "text":
            parts.append({"type": "text", "text": str(block["source"].get("data") or "")})
    return parts


def _user_content(parts: list[WireObject]) -> str | list[WireObject]:
    if all(p["type"] == "text" for p in parts):
        return "\n".join(p["text"] for p in parts)
    return parts


def _user_messages(content: Wire) -> list[WireObject]:
    """One Anthropic user message: its tool results as ``tool`` messages first (they must follow
    the assistant's tool calls), then the rest, images of the tool results included."""
    blocks = _blocks(content)
    out: list[WireObject] = []
    rest: list[WireObject] = []
    for block in blocks:
        if block.get("type") != "tool_result":
            rest.append(block)
            continue
        inner = _blocks(block.get("content"))
        text = "\n".join(str(b.get("text") or "") for b in inner if b.get("type") == "text")
        out.append({"role": "tool", "tool_call_id": str(block.get("tool_use_id") or ""),
                    "content": text or ("(error)" if block.get("is_error") else "")})
        rest.extend(b for b in inner if b.get("type") == "image")
    parts = _user_parts(rest)
    if parts:
        out.append({"role": "user", "content": _user_content(parts)})
    return out


def _assistant_message(content: Wire) -> WireObject | None:
    blocks = _blocks(content)
    text = "".join(str(b.get("text") or "") for b in blocks if b.get("type") == "text")
    calls = [{"id": str(b.get("id") or ""), "type": "function",
              "function": {"name": str(b.get("name") or ""),
                           "arguments": json.dumps(b.get("input") if b.get("input") is not None else {})}}
             for b in blocks if b.get("type") == "tool_use"]
    if not text and not calls:
        return None
    message: WireObject = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = calls
    return message


def openai_tools(tools: Wire) -> list[WireObject]:
    """Anthropic client tools as OpenAI functions (server tools, which have no schema, are left out)."""
    out = []
    for tool in tools if isinstance(tools, list) else []:
        if not isinstance(tool, dict) or "input_schema" not in tool:
            continue
        function: WireObject = {"name": str(tool.get("name") or ""), "parameters": tool["input_schema"]}
        if tool.get("description"):
            function["description"] = str(tool["description"])
        out.append({"type": "function", "function": function})
    return out


def openai_tool_choice(choice: Wire) -> Wire:
    if not isinstance(choice, dict):
        return None
    if choice.get("type") == "tool":
        return {"type": "function", "function": {"name": str(choice.get("name") or "")}}
    return _TOOL_CHOICES.get(str(choice.get("type")))


def openai_request(body: WireObject, model: str) -> WireObject:
    """An Anthropic Messages request body as an OpenAI chat-completions body for `model`."""
    messages: list[WireObject] = []
    system = body.get("system")
    system_text = system if isinstance(system, str) else "\n\n".join(
        str(b.get("text") or "") for b in _blocks(system) if b.get("type") == "text")
    if system_text:
        messages.append({"role": "system", "content": system_text})
    for message in body.get("messages") or []:
        if not isinstance(message, dict):
            continue
        if message.get("role") == "assistant":
            assistant = _assistant_message(message.get("content"))
            if assistant is not None:
                messages.append(assistant)
        else:
            messages.extend(_user_messages(message.get("content")))
    out: WireObject = {"model": model, "messages": messages}
    if body.get("max_tokens") is not None:
        out["max_tokens"] = body["max_tokens"]
    for key in ("temperature", "top_p"):
        if body.get(key) is not None:
            out[key] = body[key]
    if body.get("stop_sequences"):
        out["stop"] = list(body["stop_sequences"])
    tools = openai_tools(body.get("tools"))
    if tools:
        out["tools"] = tools
        choice = openai_tool_choice(body.get("tool_choice"))
        if choice is not None:
            out["tool_choice"] = choice
        if isinstance(body.get("tool_choice"), dict) and body["tool_choice"].get("disable_parallel_tool_use"):
            out["parallel_tool_calls"] = False
    if body.get("stream"):
        out["stream"] = True
        out["stream_options"] = {"include_usage": True}
    return out


def openai_completion(message: WireObject, model: str) -> WireObject:
    """A whole Anthropic message as an OpenAI ``chat.completion``."""
    blocks = _blocks(message.get("content"))
    assistant = _assistant_message(blocks) or {"role": "assistant", "content": ""}
    reasoning = "".join(str(b.get("thinking") or "") for b in blocks if b.get("type") == "thinking")
    if reasoning:
        assistant["reasoning_content"] = reasoning
    usage = Usage()
    usage.update_from_anthropic(message.get("usage"))
    return {"id": str(message.get("id") or ""), "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": assistant,
                         "finish_reason": FINISH_REASONS.get(str(message.get("stop_reason")), "stop")}],
            "usage": usage.openai()}


class OpenAIStreamWriter:
    """Anthropic stream events in, OpenAI ``chat.completion.chunk`` objects out.

    `feed(event)` takes one parsed event (its ``type`` field) and returns the chunks it makes;
    `finish()` the closing ones once the upstream ended. `usage` holds what the upstream said.
    """

    def __init__(self, model: str, completion_id: str, *, include_usage: bool) -> None:
        self.model = model
        self.completion_id = completion_id
        self.include_usage = include_usage
        self.usage = Usage()
        self.stop_reason: str | None = None
        self.stopped = False
        self._tool_index: dict[int, int] = {}

    def _chunk(self, delta: WireObject, finish: str | None = None) -> WireObject:
        return {"id": self.completion_id, "object": "chat.completion.chunk", "created": 0, "model": self.model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    def feed(self, event: WireObject) -> list[WireObject]:
        kind = event.get("type")
        if kind == "message_start":
            message = event.get("message") or {}
            self.usage.update_from_anthropic(message.get("usage"))
            return [self._chunk({"role": "assistant", "content": ""})]
        if kind == "content_block_start":
            block = event.get("content_block") or {}
            if block.get("type") == "tool_use":
                index = len(self._tool_index)
                self._tool_index[int(event.get("index") or 0)] = index
                return [self._chunk({"tool_calls": [{"index": index, "id": str(block.get("id") or ""),
                                                     "type": "function",
                                                     "function": {"name": str(block.get("name") or ""),
                                                                  "arguments": ""}}]})]
            if block.get("type") == "text" and block.get("text"):
                return [self._chunk({"content": str(block["text"])})]
            return []
        if kind == "content_block_delta":
            return self._delta(int(event.get("index") or 0), event.get("delta") or {})
        if kind == "message_delta":
            self.stop_reason = (event.get("delta") or {}).get("stop_reason") or self.stop_reason
            self.usage.update_from_anthropic(event.get("usage"))
            return []
        if kind == "message_stop":
            self.stopped = True
            return self._closing()
        if kind == "error":
            error = event.get("error") or {}
            raise UpstreamStreamError(str(error.get("type") or "api_error"), str(error.get("message") or ""))
        return []

    def _delta(self, index: int, delta: WireObject) -> list[WireObject]:
        kind = delta.get("type")
        if kind == "text_delta":
            return [self._chunk({"content": str(delta.get("text") or "")})]
        if kind == "thinking_delta":
            return [self._chunk({"reasoning_content": str(delta.get("thinking") or "")})]
        if kind == "input_json_delta" and index in self._tool_index:
            return [self._chunk({"tool_calls": [{"index": self._tool_index[index],
                                                 "function": {"arguments": str(delta.get("partial_json") or "")}}]})]
        return []

    def _closing(self) -> list[WireObject]:
        finish = FINISH_REASONS.get(str(self.stop_reason), "stop")
        out = [self._chunk({}, finish)]
        if self.include_usage:
            out.append({"id": self.completion_id, "object": "chat.completion.chunk", "created": 0,
                        "model": self.model, "choices": [], "usage": self.usage.openai()})
        return out

    def finish(self) -> list[WireObject]:
        """The upstream ended: nothing more after its message_stop, else it ended early."""
        if not self.stopped:
            raise UpstreamStreamError("api_error", "the upstream stream ended before the reply was complete")
        return []


def openai_error(error_type: str, message: str) -> WireObject:
    """An OpenAI error body (also the payload of a stream's error frame)."""
    return {"error": {"message": message, "type": error_type, "code": None}}


__all__ = ["FINISH_REASONS", "OpenAIStreamWriter", "UpstreamStreamError", "openai_completion", "openai_error",
           "openai_request", "openai_tool_choice", "openai_tools"]
