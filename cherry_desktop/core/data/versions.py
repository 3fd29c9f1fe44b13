"""Versions of a chat message: what Regenerate and Edit-and-resend leave in the tree.

Regenerating an answer adds another assistant row under the same user row; editing a message
and sending it again adds another user row under the same parent (at the root for the first
message). Those rows are versions of one another: siblings of the same role. The topic's
active node says which branch the conversation shows and continues from; showing another
version moves it to the newest node of that version's subtree (where that branch was left).

The answers of a multi-model turn (`siblings_group_id` set) are not versions here: their group
shows them side by side (see `sibling_groups`).
"""

from __future__ import annotations

from collections import defaultdict

from cherry_desktop.core.data import Repositories, StoredMessage


def _versionable(message: StoredMessage) -> bool:
    return message.siblings_group_id is None and message.role in ("user", "assistant")


def version_map(all_rows: list[StoredMessage], shown: list[StoredMessage]) -> dict[str, list[str]]:
    """For each row of `shown` (the branch on screen) with more than one version: every version's
    id, oldest first (`all_rows` is the whole topic)."""
    by_parent: dict[str | None, list[StoredMessage]] = defaultdict(list)
    for row in sorted(all_rows, key=lambda m: m.ordering):
        if _versionable(row):
            by_parent[row.parent_id].append(row)
    out: dict[str, list[str]] = {}
    for row in shown:
        if not _versionable(row):
            continue
        ids = [m.id for m in by_parent.get(row.parent_id, []) if m.role == row.role]
        if len(ids) > 1:
            out[row.id] = ids
    return out


def branch_leaf(all_rows: list[StoredMessage], message_id: str) -> str:
    """The newest node of `message_id`'s subtree (itself when nothing follows it)."""
    children: dict[str | None, list[StoredMessage]] = defaultdict(list)
    for row in all_rows:
        children[row.parent_id].append(row)
    ordering = {m.id: m.ordering for m in all_rows}
    best, stack, seen = message_id, [message_id], {message_id}
    while stack:
        node = stack.pop()
        if ordering.get(node, -1) > ordering.get(best, -1):
            best = node
        for child in children.get(node, []):
            if child.id not in seen:
                seen.add(child.id)
                stack.append(child.id)
    return best


def show_branch_of(repos: Repositories, topic_id: str, message_id: str) -> str | None:
    """Make the conversation show (and continue from) the branch through `message_id`: the
    topic's active node moves to the newest node after it. Returns that node (None: the message
    is not in this topic). Not a conversation change: the topic keeps its place in the list."""
    rows = repos.messages.list_messages(topic_id)
    if not any(m.id == message_id for m in rows):
        return None
    leaf = branch_leaf(rows, message_id)
    repos.topics.show_node(topic_id, leaf)
    return leaf
