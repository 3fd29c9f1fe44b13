"""What the scripted server was sent: one :class:`ModelRequest` per HTTP request.

Claude Code sends several requests per turn (one per model step, plus side requests such
as token counting). Helpers here let tests ask for the requests that drive the agent
loop and read their messages, system prompt and tool results.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
import time
from dataclasses import dataclass, field
from typing import Any

#: An attached text file as the app sends it (`core.attachments.content.text_file_block`).
# (The CLI adds a newline to each text block it forwards.)
_ATTACHED_FILE = re.compile(r'<attached_file name="([^"]*)">\n(.*)\n</attached_file>\s*\Z', re.S)
#: Headers never written to the log (credentials).
REDACTED_HEADERS = frozenset({"authorization", "x-api-key", "proxy-authorization", "cookie"})


def key_fingerprint(headers: dict[str, str]) -> str:
    """SHA-256 (hex) of the API key a request carries (`ModelRequest.key_sha256`)."""
    key = headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ").strip()
    return hashlib.sha256(key.encode()).hexdigest() if key else ""


@dataclass
class ModelRequest:
    """One HTTP request the server received.

    Attributes:
        method: HTTP method.
        path: request path without the query string.
        query: raw query string ("" when absent).
        headers: lower-cased header names, credentials removed.
        body: parsed JSON body, or None for an empty / non-JSON body.
        received_at: ``time.monotonic()`` on arrival.
        key_sha256: the SHA-256 (hex) of the request's API key (``x-api-key``, else a bearer
            ``authorization``), "" without one: which key came, without keeping it.
    """

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any
    received_at: float = field(default_factory=time.monotonic)
    key_sha256: str = ""

    @property
    def is_messages(self) -> bool:
        """True for ``POST /v1/messages`` (not ``count_tokens``)."""
        return self.method == "POST" and self.path == "/v1/messages"

    @property
    def is_chat_completions(self) -> bool:
        """True for OpenAI's ``POST /v1/chat/completions``."""
        return self.method == "POST" and self.path == "/v1/chat/completions"

    @property
    def json(self) -> dict[str, Any]:
        return self.body if isinstance(self.body, dict) else {}

    @property
    def messages(self) -> list[dict[str, Any]]:
        messages = self.json.get("messages")
        return messages if isinstance(messages, list) else []

    @property
    def tools(self) -> list[dict[str, Any]]:
        tools = self.json.get("tools")
        return tools if isinstance(tools, list) else []

    @property
    def tool_names(self) -> list[str]:
        """Tool names (Anthropic's ``name``, OpenAI's ``function.name``)."""
        names = []
        for tool in self.tools:
            if isinstance(tool, dict):
                function = tool.get("function")
                names.append(str(function.get("name") if isinstance(function, dict) else tool.get("name")))
        return names

    @property
    def stream(self) -> bool:
        return bool(self.json.get("stream"))

    @property
    def max_tokens(self) -> int | None:
        value = self.json.get("max_tokens")
        return value if isinstance(value, int) else None

    @property
    def is_model_turn(self) -> bool:
        """A request of the agent loop itself: a messages request offering tools.

        Claude Code's side requests (title / topic generation, quota probes) carry no
        tools and a small ``max_tokens``; the agent loop always offers its tool set.
        """
        return (self.is_messages or self.is_chat_completions) and bool(self.tools)

    @property
    def system_text(self) -> str:
        """The top-level ``system`` field (OpenAI: the system messages) flattened to text."""
        if self.is_chat_completions:
            return "\n".join(_flatten_text(m.get("content")) for m in self.messages
                             if isinstance(m, dict) and m.get("role") in ("system", "developer"))
        return _flatten_text(self.json.get("system"))

    def last_user_message(self) -> dict[str, Any] | None:
        """The last ``user`` message. In an OpenAI request ending in ``tool`` messages, those
        as one user message of ``tool_result`` blocks (how Anthropic's shape carries them)."""
        if self.is_chat_completions:
            results: list[dict[str, Any]] = []
            for message in reversed(self.messages):
                if not isinstance(message, dict) or message.get("role") != "tool":
                    break
                results.insert(0, {"type": "tool_result", "tool_use_id": message.get("tool_call_id"),
                                   "content": message.get("content")})
            if results:
                return {"role": "user", "content": results}
        for message in reversed(self.messages):
            if isinstance(message, dict) and message.get("role") == "user":
                return message
        return None

    def last_user_text(self) -> str:
        """Text of the last ``user`` message (all its text blocks, tool results included)."""
        message = self.last_user_message()
        return _flatten_text(message.get("content")) if message else ""

    def received_files(self) -> list[dict[str, Any]]:
        """What the last user message carried besides its text: each image block as
        ``{"kind": "image", "media_type", "bytes"}`` and each attached text file (a text block
        ``<attached_file name="...">``) as ``{"kind": "text", "name", "text"}``."""
        message = self.last_user_message()
        content = message.get("content") if message else None
        out: list[dict[str, Any]] = []
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "image":
                source = block.get("source") or {}
                data = str(source.get("data") or "")
                out.append({"kind": "image", "media_type": source.get("media_type"),
                            "bytes": len(base64.b64decode(data)) if source.get("type") == "base64" else 0})
            elif block.get("type") == "text":
                found = _ATTACHED_FILE.match(str(block.get("text") or ""))
                if found:
                    out.append({"kind": "text", "name": html.unescape(found.group(1)), "text": found.group(2)})
        return out

    def has_tool_result(self) -> bool:
        """True when the last user message carries a ``tool_result`` block."""
        return bool(self.tool_results())

    def tool_results(self) -> list[dict[str, Any]]:
        """The ``tool_result`` blocks of the last user message."""
        message = self.last_user_message()
        content = message.get("content") if message else None
        if not isinstance(content, list):
            return []
        return [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]

    def user_texts(self) -> list[str]:
        """Text of every user message in order (the conversation history as sent)."""
        return [
            _flatten_text(m.get("content")) for m in self.messages if isinstance(m, dict) and m.get("role") == "user"
        ]

    def all_text(self) -> str:
        """Every text in system and messages, joined (for "was X sent at all" checks)."""
        parts = [self.system_text]
        parts.extend(_flatten_text(m.get("content")) for m in self.messages if isinstance(m, dict))
        return "\n".join(parts)


def _flatten_text(value: Any) -> str:
    """Join the text of a content value (string, list of blocks, tool_result content)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(t for t in (_flatten_text(item) for item in value) if t)
    if isinstance(value, dict):
        kind = value.get("type")
        if kind == "text":
            return str(value.get("text", ""))
        if kind == "tool_result":
            return _flatten_text(value.get("content"))
        if kind == "thinking":
            return ""
        if "content" in value:
            return _flatten_text(value.get("content"))
    return ""
