"""The ACP client side Cherry offers an agent: its session updates and permission requests go
to the connection; no file system, terminal or elicitation capability is advertised, so those
requests are refused (the agent uses its own tools)."""

from __future__ import annotations

from typing import Any, Protocol

import acp
from acp import schema


class ClientOwner(Protocol):
    def on_update(self, update: object) -> None: ...

    async def on_permission(self, tool_call: schema.ToolCallUpdate,
                            options: list[schema.PermissionOption]) -> schema.RequestPermissionResponse: ...


class AcpClient:
    """The ACP client side Cherry offers: session updates and permission requests. No file
    system or terminal capability is advertised, so the agent uses its own tools."""

    def __init__(self, connection: ClientOwner) -> None:
        self._connection = connection

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self._connection.on_update(update)

    async def request_permission(self, session_id: str, tool_call: schema.ToolCallUpdate,
                                 options: list[schema.PermissionOption], **kwargs: Any
                                 ) -> schema.RequestPermissionResponse:
        return await self._connection.on_permission(tool_call, options)

    # Not advertised (no `fs`, `terminal` or elicitation capability): refused if asked.
    async def write_text_file(self, session_id: str, path: str, content: str,
                              **kwargs: Any) -> schema.WriteTextFileResponse | None:
        raise acp.RequestError.method_not_found("fs/write_text_file")

    async def read_text_file(self, session_id: str, path: str, line: int | None = None, limit: int | None = None,
                             **kwargs: Any) -> schema.ReadTextFileResponse:
        raise acp.RequestError.method_not_found("fs/read_text_file")

    async def create_terminal(self, session_id: str, command: str, args: list[str] | None = None,
                              env: list[schema.EnvVariable] | None = None, cwd: str | None = None,
                              output_byte_limit: int | None = None, **kwargs: Any) -> schema.CreateTerminalResponse:
        raise acp.RequestError.method_not_found("terminal/create")

    async def terminal_output(self, session_id: str, terminal_id: str, **kwargs: Any) -> schema.TerminalOutputResponse:
        raise acp.RequestError.method_not_found("terminal/output")

    async def release_terminal(self, session_id: str, terminal_id: str,
                               **kwargs: Any) -> schema.ReleaseTerminalResponse | None:
        raise acp.RequestError.method_not_found("terminal/release")

    async def wait_for_terminal_exit(self, session_id: str, terminal_id: str,
                                     **kwargs: Any) -> schema.WaitForTerminalExitResponse:
        raise acp.RequestError.method_not_found("terminal/wait_for_exit")

    async def kill_terminal(self, session_id: str, terminal_id: str,
                            **kwargs: Any) -> schema.KillTerminalResponse | None:
        raise acp.RequestError.method_not_found("terminal/kill")

    async def create_elicitation(self, message: str, mode: schema.ElicitationMode,
                                 **kwargs: Any) -> schema.CreateElicitationResponse:
        raise acp.RequestError.method_not_found("elicitation/create")

    async def complete_elicitation(self, elicitation_id: str, **kwargs: Any) -> None:
        return None

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        raise acp.RequestError.method_not_found(method)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        return None

    def on_connect(self, conn: acp.Agent) -> None:
        return None
