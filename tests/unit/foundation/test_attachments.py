"""Attachments in core: what may be attached, where the files go, how they reach a model, and
that they leave with their rows (real SQLite under tmp_path, the real container)."""

from __future__ import annotations

import asyncio
import base64
import os
import stat
import struct
import zlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cherry_desktop.core.app.bootstrap import CoreServices, start_core
from cherry_desktop.core.attachments import (
    MAX_ATTACHMENTS,
    MAX_IMAGE_BYTES,
    MAX_TEXT_BYTES,
    AttachmentError,
    AttachmentErrorCode,
    AttachmentStore,
    check_attachment,
    load_attachment,
)
from cherry_desktop.core.attachments.cleanup import SWEEP_DELAY_S, AttachmentService
from cherry_desktop.core.attachments.content import file_contents, inline_attachments, text_file_block
from cherry_desktop.core.data.models import database_proxy
from cherry_desktop.core.messages import AttachmentPart, TextPart, UIMessage, parse_part
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.paths import build_path_registry


def png_bytes(width: int = 2, height: int = 2) -> bytes:
    """A real (tiny) PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# -- limits ------------------------------------------------------------------------------------


def test_types_are_sniffed_from_the_bytes_not_the_name() -> None:
    assert check_attachment("shot.txt", png_bytes()).media_type == "image/png"
    assert check_attachment("a.jpg", b"\xff\xd8\xff\xe0" + b"x" * 20).media_type == "image/jpeg"
    assert check_attachment("a", b"GIF89a" + b"x" * 10).media_type == "image/gif"
    assert check_attachment("a", b"RIFF\x10\x00\x00\x00WEBPVP8 ").media_type == "image/webp"
    notes = check_attachment("notes.md", "# Title\nnaïve ✓\n".encode())
    assert (notes.media_type, notes.is_image) == ("text/markdown", False)
    assert check_attachment("data.json", b'{"a": 1}').media_type == "application/json"
    assert check_attachment("Makefile", b"all:\n\techo hi\n").media_type == "text/plain"
    # A binary with an image's name is neither an image nor text.
    with pytest.raises(AttachmentError) as err:
        check_attachment("fake.png", b"\x00\x01\x02garbage")
    assert err.value.code is AttachmentErrorCode.UNSUPPORTED_TYPE and err.value.filename == "fake.png"


def test_size_count_and_empty_limits_name_the_file_and_the_limit() -> None:
    big_png = png_bytes() + b"\x00" * MAX_IMAGE_BYTES
    with pytest.raises(AttachmentError) as err:
        check_attachment("/some/dir/big.png", big_png)
    assert (err.value.code, err.value.filename, err.value.limit) == (
        AttachmentErrorCode.TOO_LARGE, "big.png", MAX_IMAGE_BYTES)
    with pytest.raises(AttachmentError) as err:
        check_attachment("log.txt", b"a" * (MAX_TEXT_BYTES + 1))
    assert (err.value.code, err.value.limit) == (AttachmentErrorCode.TOO_LARGE, MAX_TEXT_BYTES)
    with pytest.raises(AttachmentError) as err:
        check_attachment("one-more.txt", b"hi", already=MAX_ATTACHMENTS)
    assert (err.value.code, err.value.limit) == (AttachmentErrorCode.TOO_MANY, MAX_ATTACHMENTS)
    with pytest.raises(AttachmentError) as err:
        check_attachment("empty.txt", b"")
    assert err.value.code is AttachmentErrorCode.EMPTY
    # Exactly at the limit is fine.
    assert check_attachment("edge.txt", b"a" * MAX_TEXT_BYTES).size == MAX_TEXT_BYTES


def test_a_huge_file_is_refused_from_its_head(tmp_path: Path) -> None:
    video = tmp_path / "movie.mp4"
    with video.open("wb") as f:
        f.write(b"\x00\x00\x00\x18ftypmp42")
        f.truncate(3 * 1024 ** 3)  # sparse: 3 GB that are never read
    with pytest.raises(AttachmentError) as err:
        load_attachment(video)
    assert err.value.code is AttachmentErrorCode.UNSUPPORTED_TYPE
    log = tmp_path / "huge.log"
    log.write_bytes(b"line\n" * (MAX_IMAGE_BYTES // 4))
    with pytest.raises(AttachmentError) as err:
        load_attachment(log)
    assert (err.value.code, err.value.limit) == (AttachmentErrorCode.TOO_LARGE, MAX_TEXT_BYTES)
    with pytest.raises(AttachmentError) as err:
        load_attachment(tmp_path)  # a folder
    assert err.value.code is AttachmentErrorCode.UNREADABLE
    with pytest.raises(AttachmentError) as err:
        load_attachment(tmp_path / "gone.txt")
    assert err.value.code is AttachmentErrorCode.UNREADABLE
    shot = tmp_path / "shot.png"
    shot.write_bytes(png_bytes())
    assert load_attachment(shot).filename == "shot.png"


# -- store -------------------------------------------------------------------------------------


def test_stage_writes_a_private_file_named_relative_to_the_folder(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path / "attachments")
    part = store.stage("topic-1", check_attachment("shot.png", png_bytes()))
    assert part.stored_name.startswith("chat-topic-1/") and part.stored_name.endswith(".png")
    assert not Path(part.stored_name).is_absolute()
    path = store.path_of(part.stored_name)
    assert path.read_bytes() == png_bytes() and part.size == len(png_bytes())
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    session_part = store.stage(session_topic_id("s-1"), check_attachment("a.txt", b"hi"))
    assert session_part.stored_name.startswith("session-s-1/") and session_part.stored_name.endswith(".txt")
    # The part round-trips through its JSON form as an attachment part.
    assert parse_part(part.model_dump(mode="json")) == part
    # A stored name never leaves the folder, whatever a damaged row says.
    for bad in ("../cherry.db", "/etc/passwd", "chat-topic-1/../../x", ""):
        with pytest.raises(AttachmentError) as err:
            store.path_of(bad)
        assert err.value.code is AttachmentErrorCode.MISSING
    with pytest.raises(AttachmentError) as err:
        store.stage("../escape", check_attachment("a.txt", b"hi"))
    assert err.value.code is AttachmentErrorCode.BAD_SCOPE
    store.discard([part])
    assert not path.exists()


def test_a_folder_that_cannot_be_made_is_a_storage_error_and_leaves_nothing(tmp_path: Path) -> None:
    root = tmp_path / "attachments"
    store = AttachmentStore(root)
    root.mkdir()
    (root / "chat-t").write_text("a file where the chat's folder belongs")
    with pytest.raises(AttachmentError) as err:
        store.stage_all("t", [check_attachment("b.txt", b"two"), check_attachment("c.txt", b"three")])
    assert err.value.code is AttachmentErrorCode.STORAGE and err.value.filename == "b.txt"
    assert sorted(p.name for p in root.iterdir()) == ["chat-t"]


async def test_inline_turns_stored_files_into_data_urls_and_a_missing_file_into_a_note(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path / "attachments")
    image = store.stage("t", check_attachment("shot.png", png_bytes()))
    notes = store.stage("t", check_attachment("notes.txt", b"line one\nline two\n"))
    gone = store.stage("t", check_attachment("gone.txt", b"bye"))
    store.path_of(gone.stored_name).unlink()
    message = UIMessage(role="user", parts=[TextPart(text="look"), image, notes, gone])
    [inlined] = await inline_attachments(store, [message])
    assert message.parts[1] is image  # the stored message is not changed
    files = file_contents(inlined)
    assert base64.b64decode(files[0].data_base64) == png_bytes()  # type: ignore[union-attr]
    assert files[1].text == "line one\nline two\n"  # type: ignore[union-attr]
    assert "gone.txt" in inlined.parts[3].text  # type: ignore[union-attr]
    assert text_file_block('a "b".txt', "x") == '<attached_file name=\'a "b".txt\'>\nx\n</attached_file>'


# -- files leave with their rows ---------------------------------------------------------------


@pytest.fixture
async def core(tmp_path: Path) -> AsyncIterator[CoreServices]:
    core = await start_core(build_path_registry(tmp_path / "data"), services=False)
    try:
        yield core
    finally:
        await core.stop()


def _service(core: CoreServices) -> AttachmentService:
    return core.app.get("attachments", AttachmentService)


async def _settled() -> None:
    await asyncio.sleep(SWEEP_DELAY_S + 0.1)  # the sweep runs once the burst of deletes is over


def _user_row(core: CoreServices, topic_id: str, *names: str) -> tuple[str, list[AttachmentPart]]:
    store = core.attachments
    assert store is not None
    parts = [store.stage(topic_id, check_attachment(n, b"content of " + n.encode())) for n in names]
    row = core.repos.messages.create_message(topic_id=topic_id, role="user", parts=[TextPart(text="hi"), *parts])
    store.release(parts)
    return row.id, parts


async def test_deleting_a_message_or_its_topic_removes_its_files(core: CoreServices) -> None:
    store = core.attachments
    assert store is not None
    topic = core.repos.topics.create_topic(name="chat")
    _, keep = _user_row(core, topic.id, "keep.txt")
    drop_id, drop = _user_row(core, topic.id, "drop.txt", "drop2.txt")
    core.repos.messages.delete_message(drop_id)
    await _settled()
    assert [store.exists(p) for p in drop] == [False, False]
    assert store.exists(keep[0])
    core.repos.topics.delete_topic(topic.id)  # the rows go by the foreign-key cascade
    await _settled()
    assert not store.exists(keep[0]) and not (store.root / f"chat-{topic.id}").exists()


async def test_deleting_an_agent_removes_the_files_of_its_sessions(core: CoreServices) -> None:
    store = core.attachments
    assert store is not None
    repos = core.repos
    agent = repos.agents.create_agent(type="claude-code", name="A")
    sessions = [repos.sessions.create_session(agent_id=agent.id, workspace_id=None) for _ in range(2)]
    parts = []
    for s in sessions:
        part = store.stage(session_topic_id(s.id), check_attachment("a.png", png_bytes()))
        repos.session_messages.create_message(session_id=s.id, role="user", parts=[part])
        store.release([part])
        parts.append(part)
    assert all(store.exists(p) for p in parts)
    repos.agents.delete_agent(agent.id)
    await _settled()
    assert not any(store.exists(p) for p in parts)
    assert store.scopes() == []


async def test_an_edit_that_drops_a_file_removes_it_and_a_rolled_back_delete_keeps_it(core: CoreServices) -> None:
    store = core.attachments
    assert store is not None
    topic = core.repos.topics.create_topic(name="chat")
    row_id, [kept] = _user_row(core, topic.id, "kept.txt")
    with pytest.raises(RuntimeError), database_proxy.atomic():
        core.repos.messages.delete_message(row_id)
        raise RuntimeError("the transaction fails")
    await _settled()
    assert store.exists(kept)  # the row is still there: so is its file
    core.repos.messages.update_message(row_id, parts=[TextPart(text="just text now")])
    await _settled()
    assert not store.exists(kept)


async def test_files_in_flight_survive_a_sweep_and_a_failed_send_leaves_nothing(core: CoreServices) -> None:
    store = core.attachments
    assert store is not None
    topic = core.repos.topics.create_topic(name="chat")
    staged = store.stage(topic.id, check_attachment("new.txt", b"typed"))
    other_id, _ = _user_row(core, topic.id, "old.txt")
    core.repos.messages.delete_message(other_id)  # a sweep of this chat while `staged` is in flight
    await _settled()
    assert store.exists(staged)
    store.release([staged])  # its send failed before a row was saved
    assert _service(core).sweep({f"chat-{topic.id}"}) == 1
    assert not store.exists(staged)


async def test_the_start_up_sweep_removes_what_a_crash_left(tmp_path: Path) -> None:
    paths = build_path_registry(tmp_path / "data")
    core = await start_core(paths, services=False)
    topic = core.repos.topics.create_topic(name="chat")
    _, [saved] = _user_row(core, topic.id, "saved.txt")
    assert core.attachments is not None
    orphan = core.attachments.stage(topic.id, check_attachment("never-saved.txt", b"x"))
    ghost = core.attachments.root / "chat-deleted-topic"
    ghost.mkdir()
    (ghost / "f.txt").write_text("x")
    await core.stop()  # "crash": the orphan was never released nor saved

    core = await start_core(paths, services=False)
    try:
        store = core.attachments
        assert store is not None
        assert _service(core).sweep(grace_s=0.0) == 2  # what the delayed start-up sweep does
        assert store.exists(saved) and not store.exists(orphan) and not ghost.exists()
    finally:
        await core.stop()
