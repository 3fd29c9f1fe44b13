"""The bridge's multi-model facet: which models a chat asks at once, a turn's sibling group,
the answer the conversation continues from, and stopping one model's answer."""

from __future__ import annotations

import dataclasses
from typing import Any


class MultiModelBridge:
    """Reached as `bridge.multi_model`; windows never touch core directly."""

    def __init__(self, bridge: Any) -> None:
        self.bridge = bridge

    # -- which models answer -----------------------------------------------------------------
    # The choice is saved with the chat (its topic row), so it outlives a restart, every
    # window of the chat reads the same one, and it goes with the chat when that is deleted.
    def extra_models(self, topic_id: str) -> list[str]:
        """The other models the chat asks; a model deleted since it was chosen drops out."""
        providers = self.bridge.repos.providers
        return [m for m in self.bridge.repos.topics.extra_models(topic_id) if providers.find_model(m) is not None]

    def set_extra_models(self, topic_id: str, unique_model_ids: list[str]) -> None:
        from cherry_desktop.core.data import NotFoundError

        try:
            self.bridge.repos.topics.set_extra_models(topic_id, unique_model_ids)
        except NotFoundError:
            pass  # the chat was deleted meanwhile: there is no choice left to keep

    def dropped_issue(self, topic_id: str) -> Any:
        """The header's notice when a model the chat was asking was deleted since (it is no
        longer asked; the notice stays until the choice changes or the model comes back).
        None: every chosen model still exists."""
        from cherry_desktop.ui.bridge._streams import ChatIssue

        repos = self.bridge.repos
        for model_id in repos.topics.extra_models(topic_id):
            if repos.providers.find_model(model_id) is None:
                provider_id = model_id.partition("::")[0]
                provider = repos.providers.find_provider(provider_id)
                return ChatIssue("extra-model-unavailable", provider.name if provider else "", provider_id)
        return None

    def models_to_ask(self, topic_id: str) -> list[str]:
        """The mentioned models of the next send: empty for the single-model path (the
        chat's own model), else the chat's model first, then the others."""
        own = self.bridge.topic_model(topic_id)
        extra = [m for m in self.extra_models(topic_id) if m != own]
        if not extra:
            return []
        return [own, *extra] if own else extra

    # -- groups ----------------------------------------------------------------------------------
    def group_of(self, message: Any) -> Any:
        """The `SiblingGroup` of a stored assistant row (None for a single model's answer);
        its members carry their usage like `load_messages` rows."""
        from cherry_desktop.core.views.sibling_groups import load_group
        from cherry_desktop.ui.bridge._usage_rows import with_usage

        group = load_group(self.bridge.repos, message)
        if group is None:
            return None
        members = with_usage(group.members, self.bridge.repos.costs.by_message(m.id for m in group.members))
        return dataclasses.replace(group, members=members)

    def find_message(self, message_id: str) -> Any:
        return self.bridge.repos.messages.find_message(message_id)

    def choose(self, message_id: str) -> Any:
        """The user's "Use this answer"; raises `SiblingChoiceError`."""
        from cherry_desktop.core.views.sibling_groups import choose_answer

        return choose_answer(self.bridge.repos, message_id)

    def model_name(self, unique_model_id: str | None) -> str:
        if not unique_model_id:
            return ""
        record = self.bridge.repos.providers.find_model(unique_model_id)
        return str(record.name or record.model_id) if record is not None else unique_model_id

    async def stop(self, topic_id: str, unique_model_id: str) -> None:
        """Stop one model's answer of the running turn (its partial persists as paused)."""
        await self.bridge.services()
        manager = self.bridge.stream_manager
        if manager is not None:
            manager.abort(topic_id, model_id=unique_model_id)
