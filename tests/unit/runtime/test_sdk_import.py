"""The SDK imports without mcp's server stack and mcp's method models, and every
one of them still works when used. Each case runs in a fresh interpreter (the test process has
imported the SDK whole already)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_the_sdk_imports_without_what_the_app_never_runs() -> None:
    out = run("""
        import sys
        import PySide6.QtCore  # its import hook reads every new module (it must not run them)
        from cherry_desktop.core.ai.runtime.claude_code.sdk import load_sdk
        sdk = load_sdk()
        assert sdk.ClaudeSDKClient and sdk.ClaudeAgentOptions and sdk.HookMatcher
        heavy = ["starlette", "uvicorn", "sse_starlette", "mcp.client", "mcp.server.lowlevel",
                 "mcp_types.methods"]
        print(sorted(m for m in heavy if m in sys.modules))
    """)
    assert out == "[]"


def test_what_was_left_unimported_works_when_used() -> None:
    out = run("""
        import asyncio
        from cherry_desktop.core.ai.runtime.claude_code.sdk import load_sdk
        sdk = load_sdk()
        import jsonschema
        try:
            jsonschema.validate(instance={"a": 1}, schema={"properties": {"a": {"type": "string"}}})
        except jsonschema.ValidationError:
            print("validated")
        from mcp.types.methods import *  # noqa: F403 (the deferred module's __all__)
        import mcp.types
        assert mcp.types.methods.__name__ == "mcp.types.methods"
        import mcp
        assert mcp.ClientSession.__module__ == "mcp.client.session"

        @sdk.tool("add", "Add two numbers", {"a": int, "b": int})
        async def add(args):
            return {"content": [{"type": "text", "text": str(args["a"] + args["b"])}]}

        server = sdk.create_sdk_mcp_server(name="calc", tools=[add])
        from mcp.server.lowlevel.server import Server
        print(type(server["instance"]) is Server)
    """)
    assert out.splitlines() == ["validated", "True"]


def test_nothing_is_deferred_when_mcp_is_already_imported() -> None:
    out = run("""
        import sys
        import mcp
        from cherry_desktop.core.ai.runtime.claude_code.sdk import load_sdk
        load_sdk()
        from mcp.server import Server
        print(Server.__module__, "jsonschema.exceptions" in sys.modules)
    """)
    assert out == "mcp.server.lowlevel.server True"


def test_mcp_s_client_imports_after_the_sdk_submodule_first() -> None:
    """The MCP hub after a Claude Code connection: mcp's client and jsonschema's submodules,
    imported first, before their packages' names are looked up."""
    out = run("""
        from cherry_desktop.core.ai.runtime.claude_code.sdk import load_sdk
        load_sdk()
        import jsonschema.exceptions
        from mcp.client.stdio import StdioServerParameters, stdio_client
        from mcp import Client
        import jsonschema
        assert jsonschema.ValidationError is jsonschema.exceptions.ValidationError
        print(Client.__name__, StdioServerParameters.__name__)
    """)
    assert out == "Client StdioServerParameters"
