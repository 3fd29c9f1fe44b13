"""A message with files in an agent session: the driver gets them inline; a steer carrying
files becomes the next turn (a steer reaches Claude Code as hook text, files would be lost);
editing it while queued keeps its files."""

from __future__ import annotations

from pathlib import Path

from cherry_desktop.core.ai.stream import AiStreamOpenRequest, dispatch_stream_request
from cherry_desktop.core.attachments import AttachmentStore, check_attachment
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import FilePart, TextPart
from tests.unit.agent_session.harness import make_harness
from tests.unit.foundation.test_attachments import png_bytes


async def test_a_steer_with_files_is_queued_and_its_turn_gets_them_inline(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=True)
    store = AttachmentStore(h.runtime.paths.get("feature.attachments"))
    await h.send("build it")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    image = store.stage(h.topic, check_attachment("shot.png", png_bytes()))
    request = AiStreamOpenRequest(topic_id=h.topic, user_message_parts=[TextPart(text="look at this"), image],
                                  follow_up_mode="steer")
    result = await dispatch_stream_request(h.manager, h.subscriber, request, [h.provider])
    store.release([image])
    assert result.follow_up == "queued" and conn.redirects == []
    [queued] = h.runtime.list_pending_turns(h.session.id)
    # An edit of the queued text keeps the file with it.
    h.runtime.edit_pending_turn(h.session.id, queued.user_message_id, "look at this, please")
    assert [p.type for p in h.row(queued.user_message_id).parts] == ["text", "attachment"]
    conn.complete("built")
    sent = await conn.wait_sent(2)
    assert sent.message.id == queued.user_message_id
    [file_part] = [p for p in sent.message.parts if isinstance(p, FilePart)]
    assert file_part.media_type == "image/png" and file_part.url.startswith("data:image/png;base64,")
    # The stored row still holds the stored name, never the bytes.
    assert [p.type for p in h.row(queued.user_message_id).parts] == ["text", "attachment"]
    conn.complete("seen")
    await h.idle()
    assert store.exists(image)
