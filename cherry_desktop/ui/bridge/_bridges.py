"""`Bridges`: the typed bridges of one app instance, built once from `CoreServices`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from cherry_desktop.ui.bridge._attachments import AttachmentsBridge
from cherry_desktop.ui.bridge._backup import BackupBridge
from cherry_desktop.ui.bridge._chats import ChatsBridge
from cherry_desktop.ui.bridge._checkpoints import CheckpointsBridge
from cherry_desktop.ui.bridge._gateway import GatewayBridge
from cherry_desktop.ui.bridge._mcp import McpBridge
from cherry_desktop.ui.bridge._multi_model import MultiModelBridge
from cherry_desktop.ui.bridge._providers import ProvidersBridge
from cherry_desktop.ui.bridge._search import SearchBridge
from cherry_desktop.ui.bridge._sessions import SessionsBridge
from cherry_desktop.ui.bridge._settings import SettingsBridge
from cherry_desktop.ui.bridge._skills import SkillsBridge
from cherry_desktop.ui.bridge._streams import StreamsBridge

if TYPE_CHECKING:
    from cherry_desktop.core.app.bootstrap import CoreServices


@dataclass(frozen=True)
class Bridges:
    """One bridge per concern; a widget takes the one (or the few) it needs.

    streams      `StreamsBridge`: open / attach / detach / abort, tool approvals, translations
    sessions     `SessionsBridge`: agents, agent sessions, their queue, header and grants
    chats        `ChatsBridge`: topics, their stored rows and usage, the sidebar's list
    providers    `ProvidersBridge`: providers, keys, models, a chat's model and its issues, prices
    settings     `SettingsBridge`: the user's settings
    search       `SearchBridge`: search across chats and sessions
    attachments  `AttachmentsBridge`: the files of messages
    multi_model  `MultiModelBridge`: several models per chat turn
    gateway      `GatewayBridge`: the local API gateway (Settings)
    backup       `BackupBridge`: backups, restores (File menu, `cherry-desktop backup`)
    checkpoints  `CheckpointsBridge`: a turn's changed files, rewinding an agent session's workspace
    mcp          `McpBridge`: the user's MCP servers, their status and tools (Settings)
    skills       `SkillsBridge`: Cherry-managed skills (Settings, the agent dialog)
    """

    streams: StreamsBridge
    sessions: SessionsBridge
    chats: ChatsBridge
    providers: ProvidersBridge
    settings: SettingsBridge
    search: SearchBridge
    attachments: AttachmentsBridge
    multi_model: MultiModelBridge
    gateway: GatewayBridge
    backup: BackupBridge
    checkpoints: CheckpointsBridge
    mcp: McpBridge
    skills: SkillsBridge

    @classmethod
    def from_core(cls, core: CoreServices, parent: QObject | None = None) -> Bridges:
        sessions = SessionsBridge(core, parent)
        chats = ChatsBridge(core, parent)
        providers = ProvidersBridge(core, parent)
        return cls(streams=StreamsBridge(core, sessions, parent), sessions=sessions, chats=chats,
                   providers=providers, settings=SettingsBridge(core, parent),
                   search=SearchBridge(core, chats, parent), attachments=AttachmentsBridge(core, parent),
                   multi_model=MultiModelBridge(core, providers, parent), gateway=GatewayBridge(core, parent),
                   backup=BackupBridge(core, parent),
                   checkpoints=CheckpointsBridge(core, parent),
                   mcp=McpBridge(core, parent), skills=SkillsBridge(core, parent))

    def services_running(self) -> bool:
        """Whether core's stream services run (the app starts them just after the first paint)."""
        return self.streams.services_running()

    async def services(self) -> None:
        """Wait until core's stream services run."""
        await self.streams.services()
