"""Attachments reach the chat models: a chat topic's user row with an image and a text file,
sent through AiStreamManager + AiService to scripted OpenAI-compatible and Anthropic servers on
127.0.0.1 (real HTTP), which echo what they received."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from cherry_desktop.core.ai.service import AiService
from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamOpenRequest,
    PersistentChatContextProvider,
    TopicStatusSnapshotEntry,
    dispatch_stream_request,
)
from cherry_desktop.core.attachments import AttachmentStore, check_attachment
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import MessagePart, TextPart, message_text
from cherry_desktop.core.state.shared_cache import topic_stream_status_key
from cherry_desktop.core.storage.credentials import CredentialStore, provider_key_name
from tests.fakes.scripted_provider_server import Reply, ScriptedServer
from tests.unit.foundation.test_attachments import png_bytes


@pytest.fixture
async def service(repos: Repositories, tmp_path: Path) -> AsyncIterator[AiService]:
    svc = AiService(repos, CredentialStore())
    svc.attachments = AttachmentStore(tmp_path / "attachments")
    try:
        yield svc
    finally:
        await svc.on_stop()


async def _wait(cond: Callable[[], bool]) -> None:
    for _ in range(2500):
        if cond():
            return
        await asyncio.sleep(0.002)
    raise AssertionError("condition never held")


async def _send(repos: Repositories, service: AiService, topic_id: str, parts: list[MessagePart]) -> str:
    mgr = AiStreamManager(stream_text=service.stream_text)
    mgr.set_context_providers([PersistentChatContextProvider(repos)])

    def done() -> bool:
        entry = mgr.shared_cache.get(topic_stream_status_key(topic_id))
        return isinstance(entry, TopicStatusSnapshotEntry) and entry.status in ("done", "error")

    result = await dispatch_stream_request(mgr, None, AiStreamOpenRequest(topic_id=topic_id, user_message_parts=parts))
    await _wait(done)
    row = repos.messages.get_message(result.placeholder_ids[0])
    assert row.status == "success", row.parts
    return message_text(row.to_ui_message())


@pytest.mark.parametrize("provider_type", ["openai-compatible", "anthropic"])
async def test_an_image_and_a_text_file_reach_the_model_and_again_with_the_history(
        provider_type: str, provider_server: ScriptedServer, service: AiService, repos: Repositories) -> None:
    store = service.attachments
    assert store is not None
    base = provider_server.base + ("/v1" if provider_type == "openai-compatible" else "")
    repos.providers.upsert_provider(id="prov", name="Scripted", type=provider_type, base_url=base)
    CredentialStore().set(provider_key_name("prov"), "sk-test")
    topic = repos.topics.create_topic(model="prov::model-x")
    image = store.stage(topic.id, check_attachment("shot.png", png_bytes()))
    notes = store.stage(topic.id, check_attachment("notes.txt", b"alpha\nbeta\n"))

    provider_server.replies.append(Reply(echo=True))
    answer = await _send(repos, service, topic.id, [TextPart(text="What is this?"), image, notes])
    assert answer.strip() == f"images=['image/png:{len(png_bytes())}'] files=['notes.txt']"
    sent = provider_server.received[0]
    assert sent.images() == [("image/png", png_bytes())]
    assert sent.texts()[0] == "What is this?"
    assert sent.texts()[1] == '<attached_file name="notes.txt">\nalpha\nbeta\n\n</attached_file>'
    # The stored row keeps the stored name, never the bytes nor an absolute path.
    user = repos.messages.branch(topic.id)[0]
    assert [p.type for p in user.parts] == ["text", "attachment", "attachment"]
    assert "base64" not in repr(user.parts) and str(store.root) not in repr(user.parts)

    # The next turn sends the history again: the earlier image is in it.
    provider_server.replies.append(Reply(echo=True))
    answer = await _send(repos, service, topic.id, [TextPart(text="And now?")])
    assert answer.strip() == "images=[] files=[]"
    history = provider_server.received[1].body["messages"]
    first_user = next(m for m in history if m["role"] == "user")
    kinds = [p["type"] for p in first_user["content"]]
    image_kind = "image_url" if provider_type == "openai-compatible" else "image"
    assert kinds == ["text", image_kind, "text"]
