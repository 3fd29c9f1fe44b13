"""Validation of an agent session before a turn: agent, workspace, driver and model.

Shared by the context provider (fresh turns) and the host (queued successors re-validate, since
the agent may have changed while the turn was queued). The only side effect is materializing a
*system* workspace under Cherry's managed root; a user workspace must already be a directory.

Every turn reads the session's rows afresh (one joined query for session, agent and workspace,
then the provider and model), so an edit made between turns is seen by the next one.
"""

from __future__ import annotations

from pathlib import Path

from cherry_desktop.core.ai.agent_session.errors import AgentSessionValidationError
from cherry_desktop.core.ai.runtime.capabilities import get_capabilities
from cherry_desktop.core.ai.runtime.persona import agent_data_dir
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverRegistry
from cherry_desktop.core.ai.runtime.types import RuntimeSessionContext, RuntimeValidationError
from cherry_desktop.core.data import RESTORE_UNCONFIRMED, Repositories, split_unique_model_id
from cherry_desktop.core.data.records import WorkspaceRecord
from cherry_desktop.core.storage.paths import PathRegistry

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


def session_workspace_path(session_id: str, repos: Repositories, paths: PathRegistry) -> Path | None:
    """Where the session's workspace is (or was: the folder may be gone); None without one."""
    found = repos.sessions.find_session_context(session_id)
    if found is None or found[2] is None:
        return None
    if found[0].worktree is not None:
        return Path(found[0].worktree.path).resolve()
    return _stored_path(found[2], paths).resolve()


def resolve_session_context(session_id: str, *, repos: Repositories, paths: PathRegistry,
                            registry: RuntimeDriverRegistry) -> RuntimeSessionContext:
    """Validate the session and return what a driver needs; raise `AgentSessionValidationError`."""
    found = repos.sessions.find_session_context(session_id)
    if found is None:
        raise AgentSessionValidationError("session-not-found", session_id)
    session, agent, workspace = found
    if agent is None:
        raise AgentSessionValidationError("agent-missing", session_id)
    if agent.load_error:
        raise AgentSessionValidationError("agent-unreadable", agent.load_error)
    if agent.config.get(RESTORE_UNCONFIRMED):
        # From a backup (perhaps another machine's): it runs commands, so only once allowed.
        raise AgentSessionValidationError("agent-unconfirmed", agent.name)
    if workspace is None:
        raise AgentSessionValidationError("workspace-missing", session_id)
    workspace_path = resolve_workspace_path(workspace, paths)
    if session.worktree is not None:
        # The session runs on its own branch, in its own worktree of the workspace's repository.
        workspace_path = Path(session.worktree.path)
        if not workspace_path.is_dir():
            raise AgentSessionValidationError("worktree-missing", session.worktree.path)
    driver = registry.find(agent.type)
    if driver is None:
        raise AgentSessionValidationError("driver-not-registered", agent.type)
    model_id = session.model or agent.model
    if not model_id:
        raise AgentSessionValidationError("model-missing", agent.id)
    try:
        provider_id, _ = split_unique_model_id(model_id)
    except ValueError:
        provider_id = ""
    provider, model = repos.providers.find_provider_and_model(provider_id or None, model_id)
    # A model or provider that no longer exists is refused here, before any row or process.
    if provider is None:
        raise AgentSessionValidationError("provider-not-found", model_id)
    if model is None:
        raise AgentSessionValidationError("model-not-found", model_id)
    caps = get_capabilities(agent.type)
    if caps is not None and not caps.is_model_compatible(provider, model):
        raise AgentSessionValidationError("model-incompatible", model_id)
    context = RuntimeSessionContext(
        session=session, agent=agent, workspace=workspace, workspace_path=workspace_path,
        agent_data_dir=agent_data_dir(paths.get("feature.agents.data"), agent.id),
        model_id=model_id, provider=provider,
    )
    try:
        driver.validate_session(context)
    except RuntimeValidationError as exc:
        raise AgentSessionValidationError(f"runtime-invalid:{exc.code}", exc.detail) from exc
    return context
