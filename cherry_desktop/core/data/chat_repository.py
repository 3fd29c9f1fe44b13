"""Repositories for providers, models, chat topics with their message tree, and usage."""

from __future__ import annotations

import builtins

# `Any` in this module: JSON cells as stored (settings, metadata, stats: dicts whose values
# readers narrow), peewee field -> value maps, fields and SQL parameters (peewee ships no types).
from typing import TYPE_CHECKING, Any, cast

import peewee as pw

from cherry_desktop.core.data._json import dumps, loads_or_error, parts_from_json, parts_to_json
from cherry_desktop.core.data.agent_repository import WRITE_AFTER_READ, NotFoundError
from cherry_desktop.core.data.models import (
    AppMeta,
    Message,
    Model,
    Provider,
    Topic,
    UsageRecord,
    database_proxy,
    execute,
    fetch_by_pk,
    now_ms,
    read_joined,
    select_columns,
)
from cherry_desktop.core.data.records import (
    MessageStatus,
    ModelRecord,
    ProviderRecord,
    StoredMessage,
    TopicRecord,
)

if TYPE_CHECKING:
    from cherry_desktop.core.messages import MessagePart  # loaded at the first message read


def _provider(row: Provider) -> ProviderRecord:
    settings, _ = loads_or_error(row.settings, {}, where=f"provider {row.id}.settings")
    return ProviderRecord(id=row.id, name=row.name, type=row.type, base_url=row.base_url,
                          enabled=row.enabled, settings=settings if isinstance(settings, dict) else {})


def _model(row: Model) -> ModelRecord:
    return ModelRecord(unique_model_id=row.unique_model_id, provider_id=row.provider_id,
                       model_id=row.model_id, name=row.name)


def _topic(row: Topic) -> TopicRecord:
    return TopicRecord(id=row.id, name=row.name, model=row.model, active_node_id=row.active_node_id,
                       created_at=row.created_at, updated_at=row.updated_at)


#: The key of `topic.settings` holding the models a chat asks besides its own model.
EXTRA_MODELS_KEY = "extra_models"


def _topic_settings(row: Topic) -> dict[str, Any]:
    settings, _ = loads_or_error(row.settings, {}, where=f"topic {row.id}.settings")
    return settings if isinstance(settings, dict) else {}


def _extra_models(settings: dict[str, Any]) -> list[str]:
    value = settings.get(EXTRA_MODELS_KEY)
    return [m for m in value if isinstance(m, str) and m] if isinstance(value, list) else []


def message_record(row: Message) -> StoredMessage:
    where = f"message {row.id}"
    parts, err = parts_from_json(row.data, where=where + ".data")
    stats, e2 = loads_or_error(row.stats, None, where=where + ".stats")
    meta, e3 = loads_or_error(row.metadata, {}, where=where + ".metadata")
    return StoredMessage(
        id=row.id, owner_id=row.topic_id, role=row.role, parts=parts, status=cast(MessageStatus, row.status),
        model_id=row.model_id, created_at=row.created_at, updated_at=row.updated_at,
        ordering=row.ordering, stats=stats, metadata=meta if isinstance(meta, dict) else {},
        parent_id=row.parent_id, siblings_group_id=row.siblings_group_id, load_error=err or e2 or e3,
    )


def unique_model_id(provider_id: str, model_id: str) -> str:
    return f"{provider_id}::{model_id}"


def split_unique_model_id(value: str) -> tuple[str, str]:
    provider, sep, model = value.partition("::")
    if not sep:
        raise ValueError(f"not a unique model id (provider::model): {value!r}")
    return provider, model


class ProviderRepository:
    def upsert_provider(self, *, id: str, name: str, type: str, base_url: str = "", enabled: bool = True,
                        settings: dict[str, Any] | None = None) -> ProviderRecord:
        """Create the provider, or change an existing one in place (its models stay: a REPLACE
        would delete the row and cascade to them)."""
        fields = {Provider.name: name, Provider.type: type, Provider.base_url: base_url,
                  Provider.enabled: enabled, Provider.settings: dumps(settings or {})}
        Provider.insert({Provider.id: id, **fields}).on_conflict(conflict_target=[Provider.id],
                                                                 update=fields).execute()
        return self.get_provider(id)

    def update_provider(self, provider_id: str, *, name: str | None = None, type: str | None = None,
                        base_url: str | None = None, enabled: bool | None = None,
                        settings: dict[str, Any] | None = None) -> ProviderRecord:
        """Change the given fields in place; the others keep their values."""
        changes: dict[Any, Any] = {}
        for column, value in ((Provider.name, name), (Provider.type, type), (Provider.base_url, base_url),
                              (Provider.enabled, enabled)):
            if value is not None:
                changes[column] = value
        if settings is not None:
            changes[Provider.settings] = dumps(settings)
        if changes and Provider.update(changes).where(Provider.id == provider_id).execute() == 0:
            raise NotFoundError(f"provider {provider_id}")
        return self.get_provider(provider_id)

    def get_provider(self, provider_id: str) -> ProviderRecord:
        row = fetch_by_pk(Provider, provider_id)
        if row is None:
            raise NotFoundError(f"provider {provider_id}")
        return _provider(row)

    def find_provider(self, provider_id: str) -> ProviderRecord | None:
        row = fetch_by_pk(Provider, provider_id)
        return _provider(row) if row else None

    def list_providers(self) -> list[ProviderRecord]:
        # Insertion order (rowid) among rows created in the same millisecond.
        return [_provider(r) for r in Provider.select().order_by(Provider.created_at, pw.SQL("rowid"))]

    def delete_provider(self, provider_id: str) -> None:
        Provider.delete().where(Provider.id == provider_id).execute()

    def upsert_model(self, *, provider_id: str, model_id: str, name: str = "") -> ModelRecord:
        umid = unique_model_id(provider_id, model_id)
        Model.insert(unique_model_id=umid, provider=provider_id, model_id=model_id,
                     name=name or model_id).on_conflict_replace().execute()
        return self.get_model(umid)

    def get_model(self, umid: str) -> ModelRecord:
        row = fetch_by_pk(Model, umid)
        if row is None:
            raise NotFoundError(f"model {umid}")
        return _model(row)

    def find_model(self, umid: str) -> ModelRecord | None:
        row = fetch_by_pk(Model, umid)
        return _model(row) if row else None

    _PROVIDER_AND_MODEL_SQL = (
        f"SELECT {select_columns(Provider, 'p')}, {select_columns(Model, 'm')} FROM (SELECT 1) AS one "
        'LEFT JOIN "provider" AS p ON p."id" = ? LEFT JOIN "model" AS m ON m."unique_model_id" = ?')

    def find_provider_and_model(self, provider_id: str | None,
                                umid: str) -> tuple[ProviderRecord | None, ModelRecord | None]:
        """`find_provider(provider_id)` (None for no id) and `find_model(umid)` in one statement."""
        found = execute(Provider, self._PROVIDER_AND_MODEL_SQL, (provider_id, umid)).fetchone()
        provider, model = read_joined((Provider, Model), found)
        return (_provider(provider) if provider is not None else None, _model(model) if model is not None else None)

    def delete_model(self, umid: str) -> None:
        Model.delete().where(Model.unique_model_id == umid).execute()

    def list_models(self, provider_id: str | None = None) -> list[ModelRecord]:
        q = Model.select().order_by(Model.provider, Model.model_id)
        if provider_id is not None:
            q = q.where(Model.provider == provider_id)
        return [_model(r) for r in q]


class TopicRepository:
    def create_topic(self, *, name: str = "", model: str | None = None, id: str | None = None) -> TopicRecord:
        fields: dict[str, Any] = {"name": name, "model": model}
        if id is not None:
            fields["id"] = id
        return _topic(Topic.create(**fields))

    def get_topic(self, topic_id: str) -> TopicRecord:
        row = fetch_by_pk(Topic, topic_id)
        if row is None:
            raise NotFoundError(f"topic {topic_id}")
        return _topic(row)

    def find_topic(self, topic_id: str) -> TopicRecord | None:
        row = fetch_by_pk(Topic, topic_id)
        return _topic(row) if row else None

    def list_topics(self) -> list[TopicRecord]:
        return [_topic(r) for r in Topic.select().order_by(Topic.updated_at.desc(), Topic.id)]

    def has_topics(self) -> bool:
        return bool(Topic.select().exists())

    def rename_topic(self, topic_id: str, name: str) -> None:
        Topic.update(name=name, updated_at=now_ms()).where(Topic.id == topic_id).execute()

    def set_model(self, topic_id: str, model: str | None) -> None:
        # Not a conversation change: the topic keeps its place in the list.
        Topic.update(model=model).where(Topic.id == topic_id).execute()

    def set_active_node(self, topic_id: str, node_id: str | None) -> None:
        Topic.update(active_node_id=node_id, updated_at=now_ms()).where(Topic.id == topic_id).execute()

    def show_node(self, topic_id: str, node_id: str) -> None:
        """Another version of a message is shown: the active node moves, `updated_at` stays."""
        Topic.update(active_node_id=node_id).where(Topic.id == topic_id).execute()

    def delete_topic(self, topic_id: str) -> None:
        Topic.delete().where(Topic.id == topic_id).execute()

    def extra_models(self, topic_id: str) -> list[str]:
        """The unique model ids the chat asks besides its own model, in the order chosen (a
        missing topic or an unreadable settings cell: none)."""
        row = fetch_by_pk(Topic, topic_id)
        return _extra_models(_topic_settings(row)) if row is not None else []

    def set_extra_models(self, topic_id: str, unique_model_ids: list[str]) -> list[str]:
        """Save the models the chat asks besides its own (duplicates dropped, order kept, the
        chat's other settings kept); returns them. Not a conversation change: `updated_at` is
        left alone. Raises `NotFoundError` for a topic that is gone."""
        chosen = list(dict.fromkeys(unique_model_ids))
        if not all(isinstance(m, str) and m for m in chosen):
            raise ValueError(f"not unique model ids: {chosen!r}")
        with database_proxy.atomic(WRITE_AFTER_READ):
            row = fetch_by_pk(Topic, topic_id)
            if row is None:
                raise NotFoundError(f"topic {topic_id}")
            settings = _topic_settings(row)
            settings[EXTRA_MODELS_KEY] = chosen
            Topic.update(settings=dumps(settings)).where(Topic.id == topic_id).execute()
        return chosen


class MessageRepository:
    """Chat messages: a tree by `parent_id`; a topic's active branch ends at `active_node_id`."""

    def _next_ordering(self, topic_id: str) -> int:
        top = Message.select(pw.fn.MAX(Message.ordering)).where(Message.topic == topic_id).scalar()
        return int(top or 0) + 1

    def create_message(self, *, topic_id: str, role: str, parts: list[MessagePart],
                       parent_id: str | None = None, status: MessageStatus = "success",
                       model_id: str | None = None, siblings_group_id: int | None = None,
                       id: str | None = None, metadata: dict[str, Any] | None = None) -> StoredMessage:
        with database_proxy.atomic(WRITE_AFTER_READ):
            fields: dict[str, Any] = {
                "topic": topic_id, "role": role, "data": parts_to_json(parts), "status": status,
                "parent_id": parent_id, "model_id": model_id, "siblings_group_id": siblings_group_id,
                "ordering": self._next_ordering(topic_id), "metadata": dumps(metadata) if metadata else None,
            }
            if id is not None:
                fields["id"] = id
            row = Message.create(**fields)
        return message_record(row)

    def update_message(self, message_id: str, *, parts: list[MessagePart] | None = None,
                       status: MessageStatus | None = None, stats: dict[str, Any] | None = None,
                       metadata: dict[str, Any] | None = None) -> None:
        changes: dict[Any, Any] = {Message.updated_at: now_ms()}
        if parts is not None:
            changes[Message.data] = parts_to_json(parts)
        if status is not None:
            changes[Message.status] = status
        if stats is not None:
            changes[Message.stats] = dumps(stats)
        if metadata is not None:
            changes[Message.metadata] = dumps(metadata)
        if Message.update(changes).where(Message.id == message_id).execute() == 0:
            raise NotFoundError(f"message {message_id}")

    def checkpoint_pending(self, message_id: str, parts: list[MessagePart]) -> bool:
        """Write a streaming row's partial parts, only while it is still `pending`."""
        q = Message.update({Message.data: parts_to_json(parts), Message.updated_at: now_ms()}).where(
            (Message.id == message_id) & (Message.status == "pending"))
        return bool(q.execute())

    def get_message(self, message_id: str) -> StoredMessage:
        row = fetch_by_pk(Message, message_id)
        if row is None:
            raise NotFoundError(f"message {message_id}")
        return message_record(row)

    def find_message(self, message_id: str) -> StoredMessage | None:
        row = fetch_by_pk(Message, message_id)
        return message_record(row) if row else None

    def list_messages(self, topic_id: str) -> list[StoredMessage]:
        """Every node of the topic in creation order."""
        q = Message.select().where(Message.topic == topic_id).order_by(Message.ordering)
        return [message_record(r) for r in q]

    def delete_message(self, message_id: str) -> None:
        """Delete one node: its children move up to its parent, and a topic whose branch ended
        here ends at the parent instead (the rest of the tree stays as it was)."""
        row = fetch_by_pk(Message, message_id)
        if row is None:
            return
        with Message._meta.database.atomic():
            Message.update(parent_id=row.parent_id).where(Message.parent_id == message_id).execute()
            Topic.update(active_node_id=row.parent_id).where(
                (Topic.id == row.topic_id) & (Topic.active_node_id == message_id)).execute()
            Message.delete().where(Message.id == message_id).execute()

    def children(self, message_id: str) -> list[StoredMessage]:
        q = Message.select().where(Message.parent_id == message_id).order_by(Message.ordering)
        return [message_record(r) for r in q]

    def branch(self, topic_id: str, leaf_id: str | None = None) -> list[StoredMessage]:
        """The path root -> leaf (the topic's active node, else its newest node)."""
        nodes = {m.id: m for m in self.list_messages(topic_id)}
        if not nodes:
            return []
        if leaf_id is None:
            topic = fetch_by_pk(Topic, topic_id)
            leaf_id = topic.active_node_id if topic and topic.active_node_id in nodes else None
        if leaf_id is None:
            leaf_id = max(nodes.values(), key=lambda m: m.ordering).id
        path: list[StoredMessage] = []
        seen: set[str] = set()
        cur: str | None = leaf_id
        while cur is not None and cur in nodes and cur not in seen:
            seen.add(cur)
            path.append(nodes[cur])
            cur = nodes[cur].parent_id
        path.reverse()
        return path

    def next_siblings_group_id(self, topic_id: str) -> int:
        top = Message.select(pw.fn.MAX(Message.siblings_group_id)).where(Message.topic == topic_id).scalar()
        return int(top or 0) + 1

    def list_pending(self) -> list[StoredMessage]:
        q = Message.select().where(Message.status == "pending").order_by(Message.ordering)
        return [message_record(r) for r in q]


class UsageRepository:
    # Every model request of a turn adds a row: the statement (all columns but the auto id) is
    # prepared once; unspecified columns take the model's defaults, as peewee's insert would.
    _INSERT_FIELDS: tuple[Any, ...] = tuple(f for f in UsageRecord._meta.sorted_fields if f is not UsageRecord.id)
    _INSERT_SQL = 'INSERT INTO "usage_record" ({}) VALUES ({})'.format(
        ", ".join(f'"{f.column_name}"' for f in _INSERT_FIELDS), ", ".join("?" for _ in _INSERT_FIELDS))
    _FIELD_NAMES = frozenset(f.name for f in _INSERT_FIELDS)

    def add(self, **fields: Any) -> int:
        unknown = fields.keys() - self._FIELD_NAMES
        if unknown:
            raise TypeError(f"unknown usage_record fields: {sorted(unknown)}")
        values: list[Any] = []
        for field in self._INSERT_FIELDS:
            if field.name in fields:
                value = fields[field.name]
            else:
                default = field.default
                value = default() if callable(default) else default
            values.append(field.db_value(value))
        return int(execute(UsageRecord, self._INSERT_SQL, tuple(values)).lastrowid)

    def list(self, *, message_id: str | None = None,
             session_id: str | None = None) -> builtins.list[dict[str, Any]]:
        q = UsageRecord.select().order_by(UsageRecord.id)
        if message_id is not None:
            q = q.where(UsageRecord.message_id == message_id)
        if session_id is not None:
            q = q.where(UsageRecord.session_id == session_id)
        rows: builtins.list[dict[str, Any]] = list(q.dicts())  # type: ignore[arg-type]
        return rows


class MetaRepository:
    """Key -> text facts about this database (`app_meta`)."""

    def get(self, key: str) -> str | None:
        row = fetch_by_pk(AppMeta, key)
        return row.value if row else None

    def set(self, key: str, value: str) -> None:
        AppMeta.insert(key=key, value=value).on_conflict_replace().execute()
