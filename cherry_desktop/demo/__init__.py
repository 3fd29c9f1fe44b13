"""The scripted Anthropic-Messages model server: test backend and offline ``--demo`` backend."""

from cherry_desktop.demo.cli_env import build_cli_env
from cherry_desktop.demo.replies import (
    AnyReply,
    HangReply,
    HttpErrorReply,
    Reply,
    ReplyFn,
    ScriptEntry,
    StreamErrorReply,
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
    http_error,
    slow_text,
    text,
    thinking,
    tool_use,
    tool_uses,
)
from cherry_desktop.demo.request_log import ModelRequest
from cherry_desktop.demo.script import demo_script
from cherry_desktop.demo.server import ScriptedModelServer, side_request_reply

__all__ = [
    "AnyReply",
    "HangReply",
    "HttpErrorReply",
    "ModelRequest",
    "Reply",
    "ReplyFn",
    "ScriptEntry",
    "ScriptedModelServer",
    "StreamErrorReply",
    "TextBlock",
    "ThinkingBlock",
    "ToolUseBlock",
    "build_cli_env",
    "demo_script",
    "http_error",
    "side_request_reply",
    "slow_text",
    "text",
    "thinking",
    "tool_use",
    "tool_uses",
]
