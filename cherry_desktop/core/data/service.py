"""The database as a container service, with every repository in one place."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import peewee as pw

from cherry_desktop.core.data.agent_repository import AgentRepository, AgentSessionRepository
from cherry_desktop.core.data.chat_repository import (
    MessageRepository,
    MetaRepository,
    ProviderRepository,
    TopicRepository,
    UsageRepository,
)
from cherry_desktop.core.data.database import open_database
from cherry_desktop.core.data.search import SearchRepository
from cherry_desktop.core.data.session_message_repository import AgentSessionMessageRepository, PendingTurnRepository
from cherry_desktop.core.data.topic_names import TopicNameRepository
from cherry_desktop.core.data.usage_cost import UsageCostRepository
from cherry_desktop.core.lifecycle.container import Application, Service


@dataclass
class Repositories:
    agents: AgentRepository = field(default_factory=AgentRepository)
    sessions: AgentSessionRepository = field(default_factory=AgentSessionRepository)
    session_messages: AgentSessionMessageRepository = field(default_factory=AgentSessionMessageRepository)
    pending_turns: PendingTurnRepository = field(default_factory=PendingTurnRepository)
    providers: ProviderRepository = field(default_factory=ProviderRepository)
    topics: TopicRepository = field(default_factory=TopicRepository)
    messages: MessageRepository = field(default_factory=MessageRepository)
    usage: UsageRepository = field(default_factory=UsageRepository)
    meta: MetaRepository = field(default_factory=MetaRepository)
    search: SearchRepository = field(default_factory=SearchRepository)
    names: TopicNameRepository = field(default_factory=TopicNameRepository)
    costs: UsageCostRepository = field(default_factory=UsageCostRepository)


class DatabaseService(Service):
    name = "database"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db: pw.SqliteDatabase | None = None
        self.repos = Repositories()

    async def on_init(self, app: Application) -> None:
        self.db = open_database(self.path)

    async def on_stop(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None
