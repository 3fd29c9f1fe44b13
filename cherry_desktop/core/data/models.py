"""peewee models: the tables of `cherry.db`.

JSON columns are stored as text and decoded by the repositories, so that one corrupt cell is
reported for its row instead of crashing a whole list.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from types import SimpleNamespace

# `Any` in this module: peewee's fields, metadata and cursors (untyped), and rows read as
# namespaces of their columns (attributes named by the model's columns, values as SQLite has them).
from typing import Any

import peewee as pw

database_proxy = pw.DatabaseProxy()


def now_ms() -> int:
    return int(time.time() * 1000)


def new_uuid() -> str:
    return str(uuid.uuid4())


class BaseModel(pw.Model):
    class Meta:
        database = database_proxy
        # snake_case table names: agent_session_message, usage_record, ...
        legacy_table_names = False


# -- statements prepared once -------------------------------------------------------------------
# A turn looks up its session, agent, workspace, provider and model, saves two rows, reads its
# session's queue, records usage and finalises its assistant row: about a dozen statements. peewee
# builds a statement's SQL anew at every execution (~0.1 ms each on the 2-core test machine, where
# SQLite runs these in ~5 us). With every statement in plain peewee (issue 12 tried it),
# bench/claude_turn.py's app_dispatch_ms went from 0.6-0.7 ms to 2.7-3.6 ms, 4-5 % of a burst
# turn, over the 2 % limit; so the per-turn paths (and the lookups by primary key) run SQL
# built once per model and read rows as plain tuples. Everything else is plain peewee.

_Converter = Callable[[Any], Any]
#: SQLite already returns these fields' Python values (text -> str, integer -> int, NULL -> None),
#: so peewee's conversion of them is the identity; other fields (booleans stored as integers,
#: ...) are converted as peewee converts them.
_NATIVE_FIELDS = (pw.CharField, pw.TextField, pw.IntegerField)
# A model's columns in table order, and the conversions its non-native columns need.
_Shape = tuple[tuple[str, ...], tuple[tuple[str, _Converter], ...]]
_SHAPES: dict[type[BaseModel], _Shape] = {}
_SELECT_BY_PK: dict[type[BaseModel], str] = {}


def _native(field: Any) -> bool:
    if isinstance(field, pw.ForeignKeyField):
        field = field.rel_field
    return isinstance(field, _NATIVE_FIELDS)  # BooleanField is none of them


def _shape(model: type[BaseModel]) -> _Shape:
    shape = _SHAPES.get(model)
    if shape is None:
        fields = model._meta.sorted_fields
        shape = (tuple(f.column_name for f in fields),
                 tuple((f.column_name, f.python_value) for f in fields if not _native(f)))
        _SHAPES[model] = shape
    return shape


def select_columns(model: type[BaseModel], alias: str) -> str:
    """The model's columns, qualified by `alias`, in the order `read_row` expects."""
    return ", ".join(f'{alias}."{name}"' for name in _shape(model)[0])


def read_row(model: type[BaseModel], values: Sequence[Any]) -> Any:
    """A row of `model` (its columns' values in table order) as a read-only namespace: attributes
    named by column, values converted as peewee converts them."""
    names, conversions = _shape(model)
    row = dict(zip(names, values, strict=True))
    for name, convert in conversions:
        row[name] = convert(row[name])
    return SimpleNamespace(**row)


def read_joined(models: Sequence[type[BaseModel]], values: Sequence[Any]) -> list[Any]:
    """Split one row selecting each model's columns in turn (`select_columns`) into one namespace
    per model; None for a model whose primary key is NULL (nothing joined)."""
    parts: list[Any] = []
    offset = 0
    for model in models:
        names = _shape(model)[0]
        chunk = values[offset:offset + len(names)]
        offset += len(names)
        primary_key: Any = model._meta.primary_key
        pk = names.index(primary_key.column_name)
        parts.append(read_row(model, chunk) if chunk[pk] is not None else None)
    return parts


def execute(model: type[BaseModel], sql: str, params: tuple[Any, ...]) -> Any:
    """Run a prepared statement on the model's database; returns the cursor."""
    return model._meta.database.execute_sql(sql, params)


def fetch_by_pk(model: type[BaseModel], value: object) -> Any:
    """The row with this primary key (see `read_row`), or None. For lookups whose row is only read."""
    sql = _SELECT_BY_PK.get(model)
    if sql is None:
        meta = model._meta
        pk: Any = meta.primary_key
        sql = _SELECT_BY_PK[model] = (f'SELECT {select_columns(model, "t")} FROM "{meta.table_name}" AS t '
                                      f'WHERE t."{pk.column_name}" = ?')
    found = execute(model, sql, (value,)).fetchone()
    return read_row(model, found) if found is not None else None


class Provider(BaseModel):
    """A model API endpoint. Its key lives in the keyring, never here."""

    id = pw.CharField(primary_key=True)
    name = pw.CharField()
    # "openai-compatible" | "anthropic"
    type = pw.CharField()
    base_url = pw.CharField(default="")
    enabled = pw.BooleanField(default=True)
    settings = pw.TextField(default="{}")
    created_at = pw.BigIntegerField(default=now_ms)


class Model(BaseModel):
    """A model of a provider; `unique_model_id` is `<provider_id>::<model_id>`."""

    unique_model_id = pw.CharField(primary_key=True)
    provider_id: str
    provider = pw.ForeignKeyField(Provider, backref="models", on_delete="CASCADE", column_name="provider_id")
    model_id = pw.CharField()
    name = pw.CharField(default="")
    capabilities = pw.TextField(default="[]")
    created_at = pw.BigIntegerField(default=now_ms)


class Agent(BaseModel):
    id = pw.CharField(primary_key=True, default=new_uuid)
    # The AgentType literal: "claude-code", ...
    type = pw.CharField()
    name = pw.CharField()
    description = pw.TextField(default="")
    # Empty -> the bundled localized definition of a built-in agent resolves at prompt time.
    instructions = pw.TextField(default="")
    built_in_id = pw.CharField(null=True)
    model = pw.CharField(null=True)
    permission_mode = pw.CharField(default="default")
    disabled_tools = pw.TextField(default="[]")
    config = pw.TextField(default="{}")
    created_at = pw.BigIntegerField(default=now_ms)
    updated_at = pw.BigIntegerField(default=now_ms)


class AgentWorkspace(BaseModel):
    id = pw.CharField(primary_key=True, default=new_uuid)
    agent_id: str | None
    agent = pw.ForeignKeyField(Agent, null=True, backref="workspaces", on_delete="SET NULL",
                               column_name="agent_id")
    name = pw.CharField()
    path = pw.TextField()
    # "system" (materialized under the managed root) | "user" (an existing folder)
    kind = pw.CharField(default="user")
    created_at = pw.BigIntegerField(default=now_ms)


class AgentSession(BaseModel):
    id = pw.CharField(primary_key=True, default=new_uuid)
    agent_id: str | None
    workspace_id: str | None
    agent = pw.ForeignKeyField(Agent, null=True, backref="sessions", on_delete="CASCADE",
                               column_name="agent_id")
    workspace = pw.ForeignKeyField(AgentWorkspace, null=True, backref="sessions", on_delete="SET NULL",
                                   column_name="workspace_id")
    name = pw.CharField(default="")
    model = pw.CharField(null=True)
    created_at = pw.BigIntegerField(default=now_ms)
    updated_at = pw.BigIntegerField(default=now_ms)
    # "" (never named: auto-naming may name it) | "auto" | "user" (never auto-named again)
    name_source = pw.CharField(default="", constraints=[pw.SQL("DEFAULT ''")])
    # The session's own settings (JSON object), e.g. "always_allowed_tools": the tools the user
    # allowed without asking for the rest of the session (migration 9).
    settings = pw.TextField(default="{}", constraints=[pw.SQL("DEFAULT '{}'")])


class AgentSessionMessage(BaseModel):
    id = pw.CharField(primary_key=True, default=new_uuid)
    session_id: str
    # Indexed with `ordering` (Meta.indexes), which also serves lookups by session alone.
    session = pw.ForeignKeyField(AgentSession, backref="messages", on_delete="CASCADE",
                                 column_name="session_id", index=False)
    role = pw.CharField()
    # JSON list of UIMessage parts.
    data = pw.TextField(default="[]")
    # pending | success | error | paused
    status = pw.CharField(default="success")
    model_id = pw.CharField(null=True)
    runtime_resume_token = pw.CharField(null=True)
    stats = pw.TextField(null=True)
    metadata = pw.TextField(null=True)
    created_at = pw.BigIntegerField(default=now_ms)
    updated_at = pw.BigIntegerField(default=now_ms)
    ordering = pw.BigIntegerField()

    class Meta:
        indexes = ((("session", "ordering"), False),)


class AgentSessionPendingTurn(BaseModel):
    """A queued follow-up (the session entry's `pending_turns`), kept across a restart."""

    id = pw.CharField(primary_key=True, default=new_uuid)
    session_id: str
    session = pw.ForeignKeyField(AgentSession, backref="pending_turns", on_delete="CASCADE",
                                 column_name="session_id")
    user_message_id = pw.CharField()
    text = pw.TextField(default="")
    is_steer = pw.BooleanField(default=False)
    ordering = pw.BigIntegerField(index=True)
    created_at = pw.BigIntegerField(default=now_ms)


class Topic(BaseModel):
    id = pw.CharField(primary_key=True, default=new_uuid)
    name = pw.CharField(default="")
    model = pw.CharField(null=True)
    active_node_id = pw.CharField(null=True)
    created_at = pw.BigIntegerField(default=now_ms)
    updated_at = pw.BigIntegerField(default=now_ms)
    # "" (never named: auto-naming may name it) | "auto" | "user" (never auto-named again)
    name_source = pw.CharField(default="", constraints=[pw.SQL("DEFAULT ''")])
    # The chat's own settings (JSON object), e.g. "extra_models": the models it asks besides
    # its own model (migration 10).
    settings = pw.TextField(default="{}", constraints=[pw.SQL("DEFAULT '{}'")])


class Message(BaseModel):
    """A chat message node: a tree by `parent_id`; multi-model siblings share a group."""

    id = pw.CharField(primary_key=True, default=new_uuid)
    topic_id: str
    topic = pw.ForeignKeyField(Topic, backref="messages", on_delete="CASCADE", column_name="topic_id")
    parent_id = pw.CharField(null=True, index=True)
    role = pw.CharField()
    data = pw.TextField(default="[]")
    # pending | success | error | paused
    status = pw.CharField(default="success")
    model_id = pw.CharField(null=True)
    siblings_group_id = pw.IntegerField(null=True)
    stats = pw.TextField(null=True)
    metadata = pw.TextField(null=True)
    created_at = pw.BigIntegerField(default=now_ms)
    updated_at = pw.BigIntegerField(default=now_ms)
    ordering = pw.BigIntegerField(index=True)


class UsageRecord(BaseModel):
    id = pw.AutoField()
    topic_id = pw.CharField(null=True, index=True)
    message_id = pw.CharField(null=True, index=True)
    session_id = pw.CharField(null=True, index=True)
    model_id = pw.CharField(null=True)
    input_tokens = pw.IntegerField(default=0)
    output_tokens = pw.IntegerField(default=0)
    cache_read_tokens = pw.IntegerField(default=0)
    cache_write_tokens = pw.IntegerField(default=0)
    reasoning_tokens = pw.IntegerField(default=0)
    time_first_token_ms = pw.IntegerField(null=True)
    time_completion_ms = pw.IntegerField(null=True)
    created_at = pw.BigIntegerField(default=now_ms)


class McpServer(BaseModel):
    """A user's MCP server (migration 11). Secret values of its env and headers live in the
    keyring (`core.mcp.registry`); this row names them only."""

    id = pw.CharField(primary_key=True, default=new_uuid)
    name = pw.CharField()
    # "stdio" | "http" (Streamable HTTP) | "sse"
    type = pw.CharField(default="stdio")
    command = pw.TextField(default="")
    args = pw.TextField(default="[]")
    cwd = pw.TextField(default="")
    url = pw.TextField(default="")
    # JSON lists: the names of the env variables / headers whose values are in the keyring.
    env_names = pw.TextField(default="[]")
    header_names = pw.TextField(default="[]")
    enabled = pw.BooleanField(default=True)
    # "ask" | "allow" | "deny": the approval of a tool with no choice of its own.
    default_policy = pw.CharField(default="ask")
    # JSON object: tool name -> {"enabled": bool, "policy": "ask" | "allow" | "deny"}.
    tools = pw.TextField(default="{}")
    created_at = pw.BigIntegerField(default=now_ms)
    updated_at = pw.BigIntegerField(default=now_ms)


class AppMeta(BaseModel):
    """Small facts about this database (e.g. that first-run defaults were already created)."""

    key = pw.CharField(primary_key=True)
    value = pw.TextField(default="")


ALL_MODELS: tuple[type[BaseModel], ...] = (
    Provider,
    Model,
    Agent,
    AgentWorkspace,
    AgentSession,
    AgentSessionMessage,
    AgentSessionPendingTurn,
    Topic,
    Message,
    UsageRecord,
    McpServer,
)
