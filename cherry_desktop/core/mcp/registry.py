"""The user's MCP servers: rows in `mcp_server` (migration 11), secrets in the keyring.

A server's env variables and headers may carry credentials, so their values are never written
to the database: the row keeps their names, the keyring one JSON object per server
(`secrets_key_name`). A row whose JSON cells are corrupt still lists (with empty values) rather
than breaking the whole list.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Protocol

from cherry_desktop.core.data._json import dumps, loads_or_error
from cherry_desktop.core.data.models import McpServer, new_uuid, now_ms
from cherry_desktop.core.mcp.config import (
    McpSecrets,
    McpServerConfig,
    McpTransport,
    ToolPolicy,
    ToolSetting,
    parse_policy,
)

log = logging.getLogger(__name__)


class SecretStore(Protocol):
    """The keyring (`CredentialStore`)."""

    def set(self, name: str, secret: str) -> None: ...

    def delete(self, name: str) -> None: ...

    def try_get(self, name: str) -> str | None: ...


class McpConfigError(ValueError):
    """A server's configuration cannot be used; `code` is stable, the UI words it."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


def secrets_key_name(server_id: str) -> str:
    return f"mcp:{server_id}:secrets"


def _strings(value: object) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _tools(value: object) -> dict[str, ToolSetting]:
    if not isinstance(value, dict):
        return {}
    out: dict[str, ToolSetting] = {}
    for name, raw in value.items():
        if isinstance(raw, dict):
            policy = raw.get("policy")
            out[str(name)] = ToolSetting(enabled=raw.get("enabled", True) is not False,
                                         policy=parse_policy(policy) if policy else None)
    return out


def _config(row: McpServer) -> McpServerConfig:
    where = f"mcp_server {row.id}"
    args, _ = loads_or_error(row.args, [], where=f"{where}.args")
    env_names, _ = loads_or_error(row.env_names, [], where=f"{where}.env_names")
    header_names, _ = loads_or_error(row.header_names, [], where=f"{where}.header_names")
    tools, _ = loads_or_error(row.tools, {}, where=f"{where}.tools")
    try:
        transport = McpTransport(row.type)
    except ValueError:
        transport = McpTransport.STDIO
    return McpServerConfig(
        id=row.id, name=row.name, transport=transport, command=row.command, args=_strings(args), cwd=row.cwd,
        url=row.url, env_names=_strings(env_names), header_names=_strings(header_names), enabled=bool(row.enabled),
        default_policy=parse_policy(row.default_policy), tools=_tools(tools))


def validate(config: McpServerConfig, others: Iterable[McpServerConfig]) -> None:
    """Refuse what cannot run or would be ambiguous (raises `McpConfigError`)."""
    if not config.name.strip():
        raise McpConfigError("name-missing")
    if config.transport is McpTransport.STDIO and not config.command.strip():
        raise McpConfigError("command-missing")
    if config.transport is not McpTransport.STDIO and not config.url.startswith(("http://", "https://")):
        raise McpConfigError("url-invalid", config.url)
    for other in others:
        if other.id != config.id and other.key == config.key:
            raise McpConfigError("name-taken", other.name)


def _tools_json(tools: Mapping[str, ToolSetting]) -> str:
    return dumps({name: {"enabled": s.enabled, **({"policy": s.policy.value} if s.policy else {})}
                  for name, s in tools.items()})


class McpServerRepository:
    """Reads and writes `mcp_server` rows and their keyring secrets (the one writer of both)."""

    def __init__(self, secrets: SecretStore | None = None) -> None:
        self._secrets = secrets

    def list(self) -> list[McpServerConfig]:
        return [_config(row) for row in McpServer.select().order_by(McpServer.created_at, McpServer.id)]

    def find(self, server_id: str) -> McpServerConfig | None:
        row = McpServer.get_or_none(McpServer.id == server_id)
        return _config(row) if row is not None else None

    def save(self, config: McpServerConfig, secrets: McpSecrets | None = None) -> McpServerConfig:
        """Insert or update; `secrets` (when given) replace the stored ones. A new config with
        an empty id gets one."""
        if not config.id:
            config = replace(config, id=new_uuid())
        validate(config, self.list())
        if secrets is not None:
            config = replace(config, env_names=tuple(sorted(secrets.env)), header_names=tuple(sorted(secrets.headers)))
            self._write_secrets(config.id, secrets)
        values = {"name": config.name.strip(), "type": config.transport.value, "command": config.command.strip(),
                      "args": dumps(list(config.args)), "cwd": config.cwd, "url": config.url.strip(),
                      "env_names": dumps(list(config.env_names)), "header_names": dumps(list(config.header_names)),
                      "enabled": config.enabled, "default_policy": config.default_policy.value,
                      "tools": _tools_json(config.tools), "updated_at": now_ms()}
        if McpServer.get_or_none(McpServer.id == config.id) is None:
            McpServer.create(id=config.id, **values)
        else:
            McpServer.update(**values).where(McpServer.id == config.id).execute()
        saved = self.find(config.id)
        assert saved is not None
        return saved

    def set_enabled(self, server_id: str, enabled: bool) -> None:
        McpServer.update(enabled=enabled, updated_at=now_ms()).where(McpServer.id == server_id).execute()

    def set_tool(self, server_id: str, tool: str, setting: ToolSetting) -> McpServerConfig | None:
        config = self.find(server_id)
        if config is None:
            return None
        tools = dict(config.tools)
        tools[tool] = setting
        McpServer.update(tools=_tools_json(tools), updated_at=now_ms()).where(McpServer.id == server_id).execute()
        return self.find(server_id)

    def set_default_policy(self, server_id: str, policy: ToolPolicy) -> None:
        McpServer.update(default_policy=policy.value, updated_at=now_ms()).where(
            McpServer.id == server_id).execute()

    def delete(self, server_id: str) -> None:
        McpServer.delete().where(McpServer.id == server_id).execute()
        if self._secrets is not None:
            try:
                self._secrets.delete(secrets_key_name(server_id))
            except Exception:
                log.warning("the keyring kept the secrets of deleted MCP server %s", server_id, exc_info=True)

    # ---- secrets ---------------------------------------------------------------------------

    def _write_secrets(self, server_id: str, secrets: McpSecrets) -> None:
        if not secrets.env and not secrets.headers:
            if self._secrets is not None:
                self._secrets.delete(secrets_key_name(server_id))
            return
        if self._secrets is None:
            raise McpConfigError("keyring-unavailable")
        self._secrets.set(secrets_key_name(server_id),
                          json.dumps({"env": dict(secrets.env), "headers": dict(secrets.headers)}))

    def secrets(self, server_id: str) -> McpSecrets:
        """The server's stored env/header values (empty when there are none or no keyring)."""
        raw = self._secrets.try_get(secrets_key_name(server_id)) if self._secrets is not None else None
        if not raw:
            return McpSecrets()
        try:
            data = json.loads(raw)
        except ValueError:
            log.error("the keyring's secrets of MCP server %s are not JSON", server_id)
            return McpSecrets()
        env = data.get("env") if isinstance(data, dict) else None
        headers = data.get("headers") if isinstance(data, dict) else None
        return McpSecrets(env={str(k): str(v) for k, v in (env or {}).items()},
                          headers={str(k): str(v) for k, v in (headers or {}).items()})


