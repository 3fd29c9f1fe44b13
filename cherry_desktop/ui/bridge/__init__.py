"""The doors from widgets into core: typed bridges per concern (the spec's IPC request
channels), the Qt-side stream listener (its push channels) and the shared-cache mirror.

The only ui package that imports `cherry_desktop.core.ai` and `cherry_desktop.core.data`
(an import-linter contract); every other ui package reaches core through the names below.
"""

from __future__ import annotations

from cherry_desktop.ui.bridge._attachments import (
    AttachmentCandidate,
    AttachmentError,
    candidate_from_bytes,
    candidate_from_path,
    is_image_type,
)
from cherry_desktop.ui.bridge._cache_mirror import QtSharedCache
from cherry_desktop.ui.bridge._listener import FRAME_MS, PHASES, QtStreamListener, StreamChunk, next_frame_delay_ms
from cherry_desktop.ui.bridge._search import SearchEntry
from cherry_desktop.ui.bridge._streams import (
    BridgeUnavailableError,
    ChatIssue,
    ChatModelChoice,
    QueuedFollowUp,
    UiBridge,
)
from cherry_desktop.ui.bridge._topic_status import TopicStatusView
from cherry_desktop.ui.bridge._usage_rows import with_usage

__all__ = [
    "FRAME_MS", "PHASES", "AttachmentCandidate", "AttachmentError", "BridgeUnavailableError", "ChatIssue",
    "ChatModelChoice", "QtSharedCache", "QtStreamListener", "QueuedFollowUp", "SearchEntry", "StreamChunk",
    "TopicStatusView", "UiBridge", "candidate_from_bytes", "candidate_from_path", "is_image_type",
    "next_frame_delay_ms", "with_usage",
]
