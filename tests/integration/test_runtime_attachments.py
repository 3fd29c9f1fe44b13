"""Attachments reach the agent runtimes (Claude Code, pi): the whole app core (`start_core`) and the bundled CLI against
the scripted model server, which echoes the image and text file it received."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cherry_desktop.core.ai.runtime.pi.install import PiInstallation
from cherry_desktop.core.ai.stream import AiStreamOpenRequest, dispatch_stream_request
from cherry_desktop.core.app.bootstrap import CoreServices, start_core
from cherry_desktop.core.attachments import check_attachment
from cherry_desktop.core.messages import MessagePart, TextPart, message_text
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.demo import ScriptedModelServer, text
from cherry_desktop.demo.bootstrap import ensure_demo_records
from cherry_desktop.demo.echo import describe_files
from cherry_desktop.demo.request_log import ModelRequest
from tests.integration.pi_helpers import pi_demo_session
from tests.unit.agent_session.harness import Subscriber
from tests.unit.foundation.test_attachments import png_bytes
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]
TURN_LIMIT_S = 30.0


@pytest.fixture
async def core(tmp_path: Path) -> AsyncIterator[CoreServices]:
    core = await start_core(build_path_registry(tmp_path / "data"))
    try:
        yield core
    finally:
        await core.stop()


def echo(request: ModelRequest) -> object:
    return text(describe_files(request.received_files()) or "I received no files.")


async def _turn(core: CoreServices, session_id: str, parts: list[MessagePart], mode: str = "steer") -> str:
    request = AiStreamOpenRequest(topic_id=session_topic_id(session_id), user_message_parts=parts,
                                  follow_up_mode=mode)  # type: ignore[arg-type]
    result = await dispatch_stream_request(core.stream_manager, Subscriber(), request)
    assistant_id = result.placeholder_ids[0]
    repo = core.repos.session_messages
    await until(lambda: repo.get_message(assistant_id).status != "pending", limit=TURN_LIMIT_S)
    await until(lambda: core.agent_runtime.is_session_settled(session_id), limit=TURN_LIMIT_S)
    row = repo.get_message(assistant_id)
    assert row.status == "success", row.parts
    return message_text(row.to_ui_message())


async def test_an_image_and_a_text_file_reach_claude_code_as_content_blocks(
        core: CoreServices, model_server: ScriptedModelServer) -> None:
    _, session_id, _ = ensure_demo_records(core.repos, core.paths.get("feature.agents.workspaces"),
                                           model_server.base_url)
    store = core.attachments
    assert store is not None
    topic = session_topic_id(session_id)
    image = store.stage(topic, check_attachment("shot.png", png_bytes()))
    notes = store.stage(topic, check_attachment("notes.md", b"# Plan\n- one\n- two\n"))
    model_server.enqueue(echo, echo)

    answer = await _turn(core, session_id, [TextPart(text="Describe these", state="done"), image, notes])
    store.release([image, notes])
    assert answer == f"I received an image (image/png, {len(png_bytes())} bytes) and the file notes.md (3 lines)."
    request = model_server.last_model_request()
    last = request.last_user_message()
    assert last is not None
    images = [b for b in last["content"] if b.get("type") == "image"]
    assert [base64.b64decode(b["source"]["data"]) for b in images] == [png_bytes()]
    assert "Describe these" in request.last_user_text()
    # The user row keeps the stored parts, and the files stay with it.
    user = next(r for r in core.repos.session_messages.list_messages(session_id) if r.role == "user")
    assert [p.type for p in user.parts] == ["text", "attachment", "attachment"]
    assert store.exists(image) and store.exists(notes)

    # The next turn carries no files (the runtime keeps its own history).
    assert await _turn(core, session_id, [TextPart(text="thanks", state="done")]) == "I received no files."


async def test_pi_gets_the_image_through_its_rpc_prompt_and_the_text_file_inline(
        core: CoreServices, model_server: ScriptedModelServer, pi_installation: PiInstallation) -> None:
    session_id = pi_demo_session(core, model_server.base_url, pi_installation)
    store = core.attachments
    assert store is not None
    topic = session_topic_id(session_id)
    image = store.stage(topic, check_attachment("shot.png", png_bytes()))
    notes = store.stage(topic, check_attachment("notes.txt", b"alpha\nbeta\n"))
    model_server.enqueue(echo)

    answer = await _turn(core, session_id, [TextPart(text="Describe these", state="done"), image, notes])
    store.release([image, notes])
    assert answer.startswith(f"I received an image (image/png, {len(png_bytes())} bytes)")
    # pi folds the text file into the prompt's text (one block): it reached the model there.
    assert '<attached_file name="notes.txt">\nalpha\nbeta\n' in model_server.last_model_request().last_user_text()
