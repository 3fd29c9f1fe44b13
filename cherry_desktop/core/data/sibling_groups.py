"""Multi-model answers of a chat: one sibling group per multi-model turn, and the answer the
conversation continues from.

A multi-model turn writes one assistant row per model under the same user row, all with the
same `siblings_group_id`. Regenerating one of them adds a newer row of the same model to the
group (the older stays in the tree); a group shows the newest row of each model, in the order
the models were asked.

The conversation continues from one answer of the group (the next turn's history holds only
that one, because history is the tree path from the root to the parent of the next user row):
- the answer the user chose (`choose_answer` moves the topic's active node onto it), else
- the first answer to finish successfully: `continue_from_first_finished` moves the active
  node onto it as it finishes, so the answer shown as "Continues from here" never moves by
  itself when another finishes later (every window and a restart read the same node), else
- an answer of the active node's model still being written (a turn or a regeneration under
  way: nothing to show yet), else
- the first answer, in the models' order, that finished successfully (rows saved before the
  rule above), else
- the topic's active node as it is (nothing succeeded: the first model's row).
"""

from __future__ import annotations

from dataclasses import dataclass

from cherry_desktop.core.data import Repositories, StoredMessage
from cherry_desktop.core.data.records import TopicRecord


class SiblingChoiceError(Exception):
    """Why an answer cannot be chosen; `code` is "not-in-group", "not-finished" or
    "group-continued" (the conversation already went on from this group)."""

    def __init__(self, code: str, message_id: str = "") -> None:
        super().__init__(f"{code}: {message_id}" if message_id else code)
        self.code = code
        self.message_id = message_id


@dataclass(frozen=True)
class SiblingGroup:
    """One multi-model turn as shown: `members` are the newest row of each model, in the
    models' order; `continues_from` is the member the next turn builds on (None: none can);
    `is_tip` says the conversation did not go on from this group yet (choices and
    regenerations are open)."""

    parent_id: str
    group_id: int
    members: list[StoredMessage]
    continues_from: str | None
    is_tip: bool

    def member_ids(self) -> list[str]:
        return [m.id for m in self.members]


def _rows(repos: Repositories, parent_id: str, group_id: int) -> list[StoredMessage]:
    return [m for m in repos.messages.children(parent_id)
            if m.siblings_group_id == group_id and m.role == "assistant"]


def newest_per_model(rows: list[StoredMessage]) -> list[StoredMessage]:
    """The newest row of each model, models in the order they first answered."""
    newest: dict[str | None, StoredMessage] = {}
    for row in sorted(rows, key=lambda m: m.ordering):
        newest[row.model_id] = row  # dict keeps the first insertion's position
    return list(newest.values())


_WRITING = ("pending", "streaming")


def _continues_from(members: list[StoredMessage], active_id: str | None) -> str | None:
    by_id = {m.id: m for m in members}
    active = by_id.get(active_id or "")
    if active is not None and active.status in ("success", *_WRITING):
        return active.id
    first_ok = next((m for m in members if m.status == "success"), None)
    if first_ok is not None:
        return first_ok.id
    return active.id if active is not None else None


def load_group(repos: Repositories, message: StoredMessage) -> SiblingGroup | None:
    """The group `message` belongs to (None for an answer of a single model)."""
    if message.siblings_group_id is None or message.parent_id is None or message.role != "assistant":
        return None
    rows = _rows(repos, message.parent_id, message.siblings_group_id)
    topic = repos.topics.find_topic(message.owner_id)
    active_id = topic.active_node_id if topic is not None else None
    members = newest_per_model(rows)
    is_tip = any(r.id == active_id for r in rows)
    return SiblingGroup(parent_id=message.parent_id, group_id=message.siblings_group_id, members=members,
                        continues_from=_continues_from(members, active_id) if is_tip else
                        _on_branch(repos, message.owner_id, rows), is_tip=is_tip)


def _on_branch(repos: Repositories, topic_id: str, rows: list[StoredMessage]) -> str | None:
    ids = {r.id for r in rows}
    return next((m.id for m in repos.messages.branch(topic_id) if m.id in ids), None)


def continuation_anchor(repos: Repositories, topic: TopicRecord) -> str | None:
    """The node the next user row hangs under: the topic's active node, or, when that is an
    answer of a multi-model turn, the answer the group continues from (see module docstring)."""
    active_id = topic.active_node_id
    if active_id is None:
        return None
    active = repos.messages.find_message(active_id)
    if active is None:
        return active_id
    group = load_group(repos, active)
    if group is None or group.continues_from is None:
        return active_id
    return group.continues_from


def continue_from_first_finished(repos: Repositories, message_id: str) -> None:
    """`message_id` just finished successfully. When it is an answer of a multi-model turn
    the conversation does not continue from a finished answer of yet (the topic's active node
    is one of the turn's answers that has not succeeded), it continues from this one, the
    first to finish (saved as the active node; see module docstring)."""
    message = repos.messages.find_message(message_id)
    if message is None or message.siblings_group_id is None or message.parent_id is None:
        return
    topic = repos.topics.find_topic(message.owner_id)
    if topic is None or topic.active_node_id in (None, message_id):
        return
    rows = _rows(repos, message.parent_id, message.siblings_group_id)
    active = next((r for r in rows if r.id == topic.active_node_id), None)
    if active is not None and active.status != "success":
        repos.topics.set_active_node(message.owner_id, message_id)


def choose_answer(repos: Repositories, message_id: str) -> SiblingGroup:
    """The user picked this answer of a multi-model turn to continue from; saved as the
    topic's active node. Raises `SiblingChoiceError`."""
    message = repos.messages.find_message(message_id)
    group = load_group(repos, message) if message is not None else None
    if message is None or group is None or message_id not in group.member_ids():
        raise SiblingChoiceError("not-in-group", message_id)
    if not group.is_tip:
        raise SiblingChoiceError("group-continued", message_id)
    if message.status != "success":
        raise SiblingChoiceError("not-finished", message_id)
    repos.topics.set_active_node(message.owner_id, message_id)
    return SiblingGroup(parent_id=group.parent_id, group_id=group.group_id, members=group.members,
                        continues_from=message_id, is_tip=True)
