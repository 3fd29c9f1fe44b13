"""`UIMessage` and its parts (the AI SDK's UI message shape, fields in snake_case).

A tool part's `type` is `tool-<name>` for a static tool or `dynamic-tool` for a runtime's own
tools (Claude Code's); `tool_name` always holds the name. Data parts are `data-<name>`; the
persistence listener folds a failed turn's error into a trailing `data-error` part.
"""

from __future__ import annotations

import uuid

# `Any` in the part models: tool input and output, metadata and data payloads as runtimes and
# providers sent them (stored and replayed as is, readers narrow); the discriminator gets a dict
# or a model instance (pydantic's contract).
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, TypeAdapter

Role = Literal["system", "user", "assistant"]
PartState = Literal["streaming", "done"]
ToolState = Literal[
    "input-streaming",
    "input-available",
    "approval-requested",
    "approval-responded",
    "output-available",
    "output-error",
    "output-denied",
]


def new_id() -> str:
    """A fresh random id (uuid4 hex string with dashes)."""
    return str(uuid.uuid4())


class _Model(BaseModel):
    # defer_build: schemas are built on first use, off the path to the first painted window.
    model_config = ConfigDict(extra="ignore", populate_by_name=True, defer_build=True)


class TextPart(_Model):
    type: Literal["text"] = "text"
    text: str = ""
    state: PartState | None = None
    provider_metadata: dict[str, Any] | None = None


class ReasoningPart(_Model):
    type: Literal["reasoning"] = "reasoning"
    text: str = ""
    state: PartState | None = None
    provider_metadata: dict[str, Any] | None = None


class ToolApproval(_Model):
    id: str
    approved: bool | None = None
    reason: str | None = None


class ToolPart(_Model):
    type: str = "dynamic-tool"
    tool_call_id: str
    tool_name: str
    state: ToolState = "input-streaming"
    input: Any = None
    input_text: str | None = None
    output: Any = None
    error_text: str | None = None
    approval: ToolApproval | None = None
    provider_executed: bool | None = None
    provider_metadata: dict[str, Any] | None = None
    duration_ms: float | None = None


class DataPart(_Model):
    type: str
    id: str | None = None
    data: Any = None


class StepStartPart(_Model):
    type: Literal["step-start"] = "step-start"


class FilePart(_Model):
    """A file given inline (the AI SDK's shape): `url` is a `data:` URL or a remote one. Stored
    attachments become file parts only in memory, on their way to a model (never in the DB)."""

    type: Literal["file"] = "file"
    media_type: str
    url: str
    filename: str | None = None


class AttachmentPart(_Model):
    """A file the user attached, copied under the data dir's attachments folder.

    `stored_name` is relative to that folder (`<scope>/<id><ext>`): the database never holds
    an absolute path, so a moved data dir keeps its attachments.
    """

    type: Literal["attachment"] = "attachment"
    id: str
    media_type: str
    filename: str
    size: int
    stored_name: str


def _part_tag(value: Any) -> str:
    # A dict to validate, or any part model instance (all have `type`, no common base declares it).
    t = value.get("type", "") if isinstance(value, dict) else getattr(value, "type", "")
    if t in ("text", "reasoning", "step-start", "file", "attachment"):
        return str(t)
    if t == "dynamic-tool" or str(t).startswith("tool-"):
        return "tool"
    return "data"


MessagePart = Annotated[
    Annotated[TextPart, Tag("text")]
    | Annotated[ReasoningPart, Tag("reasoning")]
    | Annotated[ToolPart, Tag("tool")]
    | Annotated[StepStartPart, Tag("step-start")]
    | Annotated[FilePart, Tag("file")]
    | Annotated[AttachmentPart, Tag("attachment")]
    | Annotated[DataPart, Tag("data")],
    Discriminator(_part_tag),
]

_PART_ADAPTER: TypeAdapter[MessagePart] = TypeAdapter(MessagePart, config=ConfigDict(defer_build=True))


def parse_part(value: dict[str, Any]) -> MessagePart:
    """Validate one part from its JSON form."""
    return _PART_ADAPTER.validate_python(value)


class UIMessage(_Model):
    id: str = Field(default_factory=new_id)
    role: Role
    parts: list[MessagePart] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def user_text(cls, text: str, *, id: str | None = None) -> UIMessage:
        return cls(id=id or new_id(), role="user", parts=[TextPart(text=text, state="done")])

    def text(self) -> str:
        return message_text(self)


def message_attachments(message: UIMessage) -> list[AttachmentPart]:
    """The message's stored attachments, in order."""
    return [p for p in message.parts if isinstance(p, AttachmentPart)]


def message_text(message: UIMessage) -> str:
    """All text parts of a message joined (reasoning, tools and data left out)."""
    return "".join(p.text for p in message.parts if isinstance(p, TextPart))


#: The `provider_metadata` key (value True) of a tool call `without_open_approvals` closed: the
#: turn ended before anyone answered its approval, so it did not run though nobody denied it.
UNANSWERED = "unanswered"


def without_open_approvals(parts: list[MessagePart]) -> list[MessagePart]:
    """The parts of a row whose runtime turn ended (stopped, failed, interrupted): a tool call
    still waiting on the user's approval never ran and nothing can answer it any more, so it
    reads as not allowed (`output-denied`, as Claude Code records a permission prompt cut
    short, marked `UNANSWERED`: the user did not deny it), never as a question a later window
    would offer again."""
    return [p.model_copy(update={"state": "output-denied",
                                 "provider_metadata": {**(p.provider_metadata or {}), UNANSWERED: True}})
            if isinstance(p, ToolPart) and p.state == "approval-requested" else p for p in parts]
