"""Validation of an agent session before a turn: agent, workspace, driver and model.

Shared by the context provider (fresh turns) and the host (queued successors re-validate, since
the agent may have changed while the turn was queued). The only side effect is materializing a
*system* workspace under Cherry's managed root; a user workspace must already be a directory.

Every turn validates, but with a `SessionContextCache` a turn whose session, agent, workspace,
provider and model rows are unchanged (the database's `config_version` counter, bumped by
triggers, is the same) skips their reads and the workspace's path resolution: it re-checks only
what the database does not know (the workspace folder, the registered driver, the driver's own
validation), in the same order and with the same errors as a full validation.
"""

from __future__ import annotations

import stat
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from cherry_desktop.core.ai.agent_session.errors import AgentSessionValidationError
from cherry_desktop.core.ai.runtime.capabilities import get_capabilities
from cherry_desktop.core.ai.runtime.persona import agent_data_dir
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverRegistry
from cherry_desktop.core.ai.runtime.types import RuntimeSessionContext, RuntimeValidationError
from cherry_desktop.core.data import Repositories, split_unique_model_id
from cherry_desktop.core.data.records import (
    AgentRecord,
    AgentSessionRecord,
    ModelRecord,
    ProviderRecord,
    WorkspaceRecord,
)
from cherry_desktop.core.paths import PathRegistry

#: The managed workspace root -> its resolved form. The root is the app's own folder (from the
#: path registry, fixed for the process), so it is resolved once rather than at every turn.
_RESOLVED_ROOTS: dict[Path, Path] = {}


def _resolved_root(root: Path) -> Path:
    resolved = _RESOLVED_ROOTS.get(root)
    if resolved is None:
        resolved = _RESOLVED_ROOTS[root] = root.resolve()
    return resolved


def _stored_path(workspace: WorkspaceRecord, paths: PathRegistry) -> Path:
    """The workspace's path before symlinks resolve: a system workspace's is under the managed
    root unless absolute (its id when it names none)."""
    if workspace.kind == "system":
        raw = Path(workspace.path).expanduser() if workspace.path else Path(workspace.id)
        return raw if raw.is_absolute() else paths.get("feature.agents.workspaces") / raw
    return Path(workspace.path).expanduser()


def resolve_workspace_path(workspace: WorkspaceRecord, paths: PathRegistry) -> Path:
    """System workspaces live (and are created) under the managed root; user paths must exist."""
    path = _stored_path(workspace, paths)
    if workspace.kind == "system":
        root = paths.get("feature.agents.workspaces")
        resolved = path.resolve()
        if not resolved.is_relative_to(_resolved_root(root)):
            raise AgentSessionValidationError("workspace-unavailable",
                                              f"system workspace {workspace.id} escapes the managed root")
        if not resolved.is_dir():  # a stat; mkdir on an existing folder raises and catches inside
            try:
                resolved.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise AgentSessionValidationError("workspace-unavailable", str(exc)) from exc
        return resolved
    if not workspace.path or not path.is_dir():
        raise AgentSessionValidationError("workspace-not-directory", workspace.path)
    return path.resolve()


@dataclass(frozen=True, slots=True)
class _SessionRows:
    """What a session's rows (and its workspace path) gave, at one `config_version`."""

    version: int
    paths: PathRegistry
    session: AgentSessionRecord
    agent: AgentRecord
    workspace: WorkspaceRecord
    workspace_path: Path
    #: The workspace path as stored (before symlinks resolve) and the (device, inode) of the
    #: folder it led to: a hit stats it to see that it still leads to that folder.
    stored_path: Path
    directory: tuple[int, int]
    agent_data_dir: Path
    model_id: str | None
    provider: ProviderRecord | None
    model: ModelRecord | None


class SessionContextCache:
    """The rows of recently validated sessions, keyed by session id, valid while the database's
    `config_version` is unchanged; the least recently used session goes past `max_sessions`.

    One cache belongs to one database. Records are shared between the contexts it returns: they
    are read-only (a context's own fields, like `model_id`, are the caller's to change).
    """

    def __init__(self, max_sessions: int = 64) -> None:
        self.max_sessions = max_sessions
        self._rows: OrderedDict[str, _SessionRows] = OrderedDict()

    def __len__(self) -> int:
        return len(self._rows)

    def clear(self) -> None:
        self._rows.clear()

    def lookup(self, session_id: str, version: int, paths: PathRegistry) -> _SessionRows | None:
        """The rows read at `version` with `paths`, None when absent or stale."""
        rows = self._rows.get(session_id)
        if rows is None or rows.version != version or rows.paths is not paths:
            return None
        self._rows.move_to_end(session_id)
        return rows

    def store(self, session_id: str, rows: _SessionRows) -> None:
        self._rows[session_id] = rows
        self._rows.move_to_end(session_id)
        while len(self._rows) > self.max_sessions:
            self._rows.popitem(last=False)

    def discard(self, session_id: str) -> None:
        self._rows.pop(session_id, None)


def _directory_id(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the folder `path` leads to (symlinks followed); None if it is none."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None


def _read_rows(session_id: str, version: int, repos: Repositories, paths: PathRegistry) -> _SessionRows:
    """Read and check what the database holds about the session; resolve its workspace."""
    found = repos.sessions.find_session_context(session_id)
    if found is None:
        raise AgentSessionValidationError("session-not-found", session_id)
    session, agent, workspace = found
    if agent is None:
        raise AgentSessionValidationError("agent-missing", session_id)
    if agent.load_error:
        raise AgentSessionValidationError("agent-unreadable", agent.load_error)
    if workspace is None:
        raise AgentSessionValidationError("workspace-missing", session_id)
    workspace_path = resolve_workspace_path(workspace, paths)
    model_id = session.model or agent.model
    provider: ProviderRecord | None = None
    model: ModelRecord | None = None
    if model_id:  # no model: `_check` reports it after the driver, as it always has
        try:
            provider_id, _ = split_unique_model_id(model_id)
        except ValueError:
            provider_id = ""
        provider, model = repos.providers.find_provider_and_model(provider_id or None, model_id)
    stored_path = _stored_path(workspace, paths)
    return _SessionRows(
        version=version, paths=paths, session=session, agent=agent, workspace=workspace,
        workspace_path=workspace_path, stored_path=stored_path,
        # The folder just resolved: a stat failing now (it vanished at once) never matches.
        directory=_directory_id(stored_path) or (-1, -1),
        agent_data_dir=agent_data_dir(paths.get("feature.agents.data"), agent.id),
        model_id=model_id, provider=provider, model=model,
    )


def _check(rows: _SessionRows, registry: RuntimeDriverRegistry) -> RuntimeSessionContext:
    """The checks the database cannot answer (driver, capabilities, the driver's own), on a new context."""
    agent = rows.agent
    driver = registry.find(agent.type)
    if driver is None:
        raise AgentSessionValidationError("driver-not-registered", agent.type)
    model_id = rows.model_id
    if not model_id:
        raise AgentSessionValidationError("model-missing", agent.id)
    # A model or provider that no longer exists is refused here, before any row or process.
    if rows.provider is None:
        raise AgentSessionValidationError("provider-not-found", model_id)
    if rows.model is None:
        raise AgentSessionValidationError("model-not-found", model_id)
    caps = get_capabilities(agent.type)
    if caps is not None and not caps.is_model_compatible(rows.provider, rows.model):
        raise AgentSessionValidationError("model-incompatible", model_id)
    context = RuntimeSessionContext(
        session=rows.session, agent=agent, workspace=rows.workspace, workspace_path=rows.workspace_path,
        agent_data_dir=rows.agent_data_dir, model_id=model_id, provider=rows.provider,
    )
    try:
        driver.validate_session(context)
    except RuntimeValidationError as exc:
        raise AgentSessionValidationError(f"runtime-invalid:{exc.code}", exc.detail) from exc
    return context


def resolve_session_context(session_id: str, *, repos: Repositories, paths: PathRegistry,
                            registry: RuntimeDriverRegistry,
                            cache: SessionContextCache | None = None) -> RuntimeSessionContext:
    """Validate the session and return what a driver needs; raise `AgentSessionValidationError`.

    With `cache`, the session's rows are reused while `config_version` is unchanged and its
    workspace path still leads to the folder it resolved to (one stat; anything else, a vanished
    folder included, takes the full path, which re-creates a system workspace or raises as it
    always has). The driver, capability and driver checks run every time; a failure is not cached.
    """
    if cache is None:
        return _check(_read_rows(session_id, 0, repos, paths), registry)
    # Read before the rows: a write in between makes the cached version stale, never the rows.
    version = repos.sessions.config_version()
    rows = cache.lookup(session_id, version, paths)
    if rows is None or _directory_id(rows.stored_path) != rows.directory:
        try:
            rows = _read_rows(session_id, version, repos, paths)
        except AgentSessionValidationError:
            cache.discard(session_id)
            raise
    try:
        context = _check(rows, registry)
    except AgentSessionValidationError:
        cache.discard(session_id)
        raise
    cache.store(session_id, rows)
    return context
