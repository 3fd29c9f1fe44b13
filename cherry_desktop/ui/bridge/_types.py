"""The plain values the bridges hand to widgets (frozen dataclasses, no core records)."""

from __future__ import annotations

from dataclasses import dataclass

# Core's records the widgets show as they are: a provider (the providers panel), a topic's
# usage totals (the usage line).
from cherry_desktop.core.data import ProviderRecord
from cherry_desktop.core.data.usage_cost import UsageSums

__all__ = [
    "AgentDeletion",
    "ChatIssue",
    "ChatModelChoice",
    "ProviderRecord",
    "QueuedFollowUp",
    "SidebarAgent",
    "SidebarSession",
    "SidebarTopic",
    "UsageSums",
]


@dataclass(frozen=True)
class ChatModelChoice:
    """A model a chat can use: one of an enabled provider's models. `usable` is False while
    its provider needs an API key that is not stored (the pickers mark it)."""

    unique_model_id: str
    name: str
    provider_id: str
    provider_name: str
    usable: bool = True


@dataclass(frozen=True)
class ChatIssue:
    """Why a chat topic cannot send yet; `code` is one of "no-model", "model-unavailable",
    "provider-disabled", "missing-key", "keyring-unavailable", or for a model the chat asks
    besides its own, "extra-model-unavailable" (deleted) and "extra-model-skipped" (it cannot
    answer: no key, provider off; `model_name` names it); the UI words it."""

    code: str
    provider_name: str = ""
    provider_id: str = ""
    model_name: str = ""

    @property
    def blocks_send(self) -> bool:
        """Whether a send would surely fail. A model missing from the records may still be
        served (its provider decides), and core words that failure if it comes."""
        return self.code not in ("model-unavailable", "extra-model-unavailable", "extra-model-skipped")


@dataclass(frozen=True)
class QueuedFollowUp:
    """One queued follow-up of an agent session, as the queue dock lists it."""

    message_id: str
    text: str
    is_steer: bool


@dataclass(frozen=True)
class SidebarSession:
    """An agent session as the sidebar lists it."""

    topic_id: str
    session_id: str
    name: str


@dataclass(frozen=True)
class SidebarAgent:
    """An agent with its sessions, newest first, as the sidebar lists them."""

    agent_id: str
    name: str
    sessions: tuple[SidebarSession, ...]


@dataclass(frozen=True)
class SidebarTopic:
    """A chat topic as the sidebar lists it."""

    topic_id: str
    name: str


@dataclass(frozen=True)
class AgentDeletion:
    """What deleting an agent takes with it, as the question before it says: the topics of its
    sessions, and the folders of those that work in their own git worktree (kept on disk)."""

    agent_id: str
    name: str
    topic_ids: tuple[str, ...]
    worktree_paths: tuple[str, ...]
