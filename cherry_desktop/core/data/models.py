"""peewee models: the tables of `cherry.db`.

JSON columns are stored as text and decoded by the repositories, so that one corrupt cell is
reported for its row instead of crashing a whole list.
"""

from __future__ import annotations

import time
import uuid

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
)
