"""Cherry-managed skills through the whole app core, for each runtime (the real Claude Code CLI,
the real pi, the real claude-agent-acp) against the scripted server: a skill imported into the
`SkillStore` and enabled for the agent reaches the runtime (Claude Code and claude-agent-acp:
the Cherry-owned plugin, loaded by the CLI's Skill tool; pi: `--skill <path>`, listed in its
prompt), and a skill planted in the workspace's own skill folders never loads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.ai.runtime.claude_code.tool_calls import SKILL_REFUSED
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from tests.integration.app_core import App, OpenApp

pytestmark = [pytest.mark.integration, pytest.mark.timeout(150)]

SKILL = "---\nname: greeting\ndescription: How to greet the user the Cherry way.\n---\nSay HELLO-FROM-CHERRY-SKILL.\n"
#: claude-agent-acp's tool result for a permission request Cherry rejected.
ACP_REFUSED = "User refused permission to run tool"
PLANTED = "---\nname: planted\ndescription: A planted workspace skill.\n---\nSay PLANTED-SKILL-RAN.\n"


def enable_skill(app: App[Any], tmp_path: Path) -> None:
    source = tmp_path / "greeting-src"
    source.mkdir()
    (source / "SKILL.md").write_text(SKILL)
    store = app.core.skills
    assert store is not None
    assert store.import_folder(source).name == "greeting"
    agent_id = app.core.repos.sessions.get_session(app.session_id).agent_id
    agent = app.core.repos.agents.get_agent(agent_id)
    app.core.repos.agents.update_agent(agent_id, config={**agent.config, "skills": ["greeting"]})
    for folder in (".claude/skills/planted", ".pi/skills/planted", ".agents/skills/planted"):
        (app.workspace / folder).mkdir(parents=True, exist_ok=True)
        (app.workspace / folder / "SKILL.md").write_text(PLANTED)


def everything_sent(model_server: ScriptedModelServer) -> str:
    return "\n".join(json.dumps(r.json) for r in model_server.message_requests())


async def test_an_enabled_skill_is_used_and_a_planted_one_is_not(
        open_runtime_app: OpenApp, model_server: ScriptedModelServer, tmp_path: Path) -> None:
    app = await open_runtime_app()
    enable_skill(app, tmp_path)
    if app.claude_tools:
        model_server.enqueue(tool_use("Skill", {"skill": "cherry-skills:greeting"}), text("greeted"))
        row = await app.turn("greet me")
        assert row.status == "success"
        assert "HELLO-FROM-CHERRY-SKILL" in everything_sent(model_server)
        model_server.enqueue(tool_use("Skill", {"skill": "planted"}), text("not planted"))
        row = await app.turn("use the planted skill")
        assert row.status == "success"
        last = json.dumps(model_server.message_requests()[-1].json.get("messages")[-1])
        # Refused by Cherry's gate, not just absent (ACP's reject carries no reason: the agent's
        # own refusal text reaches the model).
        assert (ACP_REFUSED if app.agent_type == "acp" else SKILL_REFUSED) in last
    else:
        model_server.enqueue(text("I see the greeting skill."))
        row = await app.turn("which skills do you have?")
        assert row.status == "success"
        system = json.dumps(model_server.message_requests()[-1].json.get("system"))
        assert "How to greet the user the Cherry way." in system
        assert "A planted workspace skill." not in system
    assert "PLANTED-SKILL-RAN" not in everything_sent(model_server)
