"""The real CLI's init message announces its slash commands: after a turn the host publishes
them with the session's runtime state (what the composer's "/" list shows instead of the
descriptor's)."""

from __future__ import annotations

import pytest

from cherry_desktop.core.ai.agent_session import agent_session_runtime_key
from cherry_desktop.demo import ScriptedModelServer, text
from tests.integration.app_core import OpenApp

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]


async def test_the_clis_init_message_publishes_its_slash_commands(
        open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_app()
    model_server.enqueue(text("Hello."))
    await app.turn("hi")
    state = app.core.shared_cache.get(agent_session_runtime_key(app.session_id))
    commands = state["slash_commands"]
    assert "/compact" in commands and all(c.startswith("/") for c in commands)
