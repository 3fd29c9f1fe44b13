"""Several models per chat turn: which models a chat asks at once, a turn's sibling group, the
answer the conversation continues from."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from cherry_desktop.ui.bridge._base import CoreBridge
from cherry_desktop.ui.bridge._cache_keys import topic_continuation_key, topic_extra_models_key
from cherry_desktop.ui.bridge._types import ChatIssue
from cherry_desktop.ui.bridge._usage_rows import with_usage

if TYPE_CHECKING:
    from cherry_desktop.core.app.bootstrap import CoreServices
    from cherry_desktop.core.data import StoredMessage
    from cherry_desktop.core.data.sibling_groups import SiblingGroup
    from cherry_desktop.ui.bridge._providers import ProvidersBridge


class MultiModelBridge(CoreBridge):
    """The multi-model side of chats (see module docstring); stopping one model's answer is a
    stream channel (`StreamsBridge.abort(topic_id, model_id=...)`).

    Signals:
        (none: a choice is saved with the chat, and its windows re-read it)
    """

    def __init__(self, core: CoreServices, providers: ProvidersBridge, parent: QObject | None = None) -> None:
        super().__init__(core, parent)
        self.providers = providers

    # -- which models answer -----------------------------------------------------------------
    # The choice is saved with the chat (its topic row), so it outlives a restart, every
    # window of the chat reads the same one, and it goes with the chat when that is deleted.
    def extra_models(self, topic_id: str) -> list[str]:
        """The other models the chat asks; a model deleted since it was chosen drops out."""
        providers = self._repos.providers
        return [m for m in self._repos.topics.extra_models(topic_id) if providers.find_model(m) is not None]

    def set_extra_models(self, topic_id: str, unique_model_ids: list[str]) -> None:
        """Save the choice; every window of the chat follows (`topic_extra_models_key`)."""
        from cherry_desktop.core.data import NotFoundError

        try:
            self._repos.topics.set_extra_models(topic_id, unique_model_ids)
        except NotFoundError:
            pass  # the chat was deleted meanwhile: there is no choice left to keep
        self.core.shared_cache.set_shared(topic_extra_models_key(topic_id), self.extra_models(topic_id))

    def dropped_issue(self, topic_id: str) -> ChatIssue | None:
        """The header's notice when a model the chat was asking was deleted since (it is no
        longer asked; the notice stays until the choice changes or the model comes back).
        None: every chosen model still exists."""
        repos = self._repos
        for model_id in repos.topics.extra_models(topic_id):
            if repos.providers.find_model(model_id) is None:
                provider_id = model_id.partition("::")[0]
                provider = repos.providers.find_provider(provider_id)
                return ChatIssue("extra-model-unavailable", provider.name if provider else "", provider_id)
        return None

    def models_to_ask(self, topic_id: str) -> list[str]:
        """The mentioned models of the next send: empty for the single-model path (the
        chat's own model), else the chat's model first, then the others that can answer (one
        that cannot, e.g. without its key, is skipped, `skipped_models`: it never holds up
        the others)."""
        own = self.providers.topic_model(topic_id)
        skipped = set(self.skipped_models(topic_id))
        extra = [m for m in self.extra_models(topic_id) if m != own and m not in skipped]
        if not extra:
            return []
        return [own, *extra] if own else extra

    def skipped_models(self, topic_id: str) -> list[str]:
        """The other models the chat asks that cannot answer now (no key, provider off): a
        send leaves them out and says so."""
        own = self.providers.topic_model(topic_id)
        return [m for m in self.extra_models(topic_id)
                if m != own and (issue := self.providers.model_issue(m)) is not None and issue.blocks_send]

    def header_issue(self, topic_id: str) -> ChatIssue | None:
        """The chat header's notice: what keeps the chat's own model from answering, else a model
        it also asks that cannot answer now (left out of each send) or that was deleted since
        (no longer asked). None: nothing to say."""
        return self.providers.chat_issue(topic_id) or self.skipped_issue(topic_id) or self.dropped_issue(topic_id)

    def skipped_issue(self, topic_id: str) -> ChatIssue | None:
        """The notice for the first of `skipped_models` (None: every model can answer)."""
        for model_id in self.skipped_models(topic_id):
            issue = self.providers.model_issue(model_id)
            if issue is not None:
                return ChatIssue("extra-model-skipped", issue.provider_name, issue.provider_id,
                                 model_name=self.model_name(model_id))
        return None

    # -- groups ----------------------------------------------------------------------------------
    def group_of(self, message: StoredMessage) -> SiblingGroup | None:
        """The `SiblingGroup` of a stored assistant row (None for a single model's answer);
        its members carry their usage like `load_messages` rows."""
        from cherry_desktop.core.data.sibling_groups import load_group

        group = load_group(self._repos, message)
        if group is None:
            return None
        members = with_usage(group.members, self._repos.costs.by_message(m.id for m in group.members))
        return dataclasses.replace(group, members=members)

    def find_message(self, message_id: str) -> StoredMessage | None:
        return self._repos.messages.find_message(message_id)

    def choose(self, topic_id: str, message_id: str) -> SiblingGroup:
        """The user's "Use this answer" (saved; every window of the chat re-reads its rows,
        `topic_continuation_key`); raises `SiblingChoiceError`."""
        from cherry_desktop.core.data.sibling_groups import choose_answer

        group = choose_answer(self._repos, message_id)
        self.core.shared_cache.set_shared(topic_continuation_key(topic_id), message_id)
        return group

    def model_name(self, unique_model_id: str | None) -> str:
        return self.providers.model_name(unique_model_id)
