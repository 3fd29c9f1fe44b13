"""Claude Code's TodoWrite as a live checklist card (and in the session header while the turn
runs), plan mode's ExitPlanMode approval as a Markdown plan with "Approve plan" / "Keep
planning", and compaction as a divider row — through the real window, host and manager with
the scripted driver; the cards survive a reload from the database."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import QLocale, Qt

from cherry_desktop.core.ai.runtime.events import (
    ChunkEvent,
    CompactionCompleteEvent,
    CompactionStartEvent,
    ToolApprovalRequestEvent,
)
from cherry_desktop.core.messages import ToolInputAvailableChunk, ToolInputStartChunk, ToolOutputAvailableChunk
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.ui.chat import CompactionDivider, PlanCard, TodoCard, split_plan_heading
from tests.fakes.scripted_driver import ScriptedDriver
from tests.gui.conftest import ARTIFACTS, send_turn
from tests.unit.agent_session.harness import add_model
from tests.waiting import until

pytestmark = pytest.mark.gui

TODOS = [{"content": "Read the code", "status": "completed", "activeForm": "Reading the code"},
         {"content": "Write the tests", "status": "in_progress", "activeForm": "Writing the tests"},
         {"content": "Ship it", "status": "pending", "activeForm": "Shipping it"}]
PLAN = "## Search: the plan\n\n1. Add a **search** box\n2. Index messages with FTS5\n"


@pytest.fixture
def agent_topic(ui_core: Any, tmp_path: Any) -> tuple[str, ScriptedDriver]:
    driver = ScriptedDriver(type="claude-code", supports_redirect=True)
    ui_core.agent_runtime.registry.register(driver, replace=True)
    (tmp_path / "ws").mkdir()
    repos = ui_core.repos
    add_model(repos, "demo::sonnet")  # a turn on a model that no longer exists is refused
    agent = repos.agents.create_agent(type="claude-code", name="Ada", model="demo::sonnet", permission_mode="plan")
    ws = repos.agents.create_workspace(name="ws", path=str(tmp_path / "ws"), agent_id=agent.id)
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name="Build")
    return session_topic_id(session.id), driver


def _tool(call_id: str, name: str, tool_input: Any) -> list[ChunkEvent]:
    return [ChunkEvent(ToolInputStartChunk(tool_call_id=call_id, tool_name=name)),
            ChunkEvent(ToolInputAvailableChunk(tool_call_id=call_id, tool_name=name, input=tool_input))]


async def test_todo_card_plan_approval_and_compaction_divider(controller: Any, ui_core: Any, agent_topic: Any,
                                                              qtbot: Any) -> None:
    topic_id, driver = agent_topic
    window = controller.open_window(topic_id)
    window.resize(1000, 760)
    window.show()
    conn = await send_turn(qtbot, window, driver, "plan the search feature")

    # Compaction first: a divider that turns from "compacting" to "compacted".
    conn.emit(CompactionStartEvent())
    await until(lambda: window.message_view.rows()[-1].findChild(CompactionDivider) is not None)
    divider = window.message_view.rows()[-1].findChild(CompactionDivider)
    assert "Compacting" in divider.label.text()
    conn.emit(CompactionCompleteEvent(anchor="a1", tokens_before=48_000, trigger="auto"))
    await until(lambda: "compacted" in divider.label.text())
    # It says what was compacted: how much context, and that the runtime did it on its own.
    size = QLocale().toString(48_000)
    assert divider.label.text() == (f"— The context was full: {size} tokens of earlier messages were compacted "
                                    "into a summary —")

    # TodoWrite: a checklist card, and the progress in the header while the turn runs.
    conn.emit(*_tool("todo-1", "TodoWrite", {"todos": TODOS}))
    conn.emit(ChunkEvent(ToolOutputAvailableChunk(tool_call_id="todo-1", output="Todos have been modified")))
    await until(lambda: window.message_view.rows()[-1].findChild(TodoCard) is not None)
    card = window.message_view.rows()[-1].findChild(TodoCard)
    assert card.objectName() == "todoCard"
    assert card.header.text() == "Todo list · 1 of 3 done"
    assert "<s>Read the code</s>" in card.input_label.text() and "<b>Writing the tests</b>" in card.input_label.text()
    header = window.session_header
    await until(lambda: header.todo_label.isVisibleTo(window))
    assert header.todo_label.text() == "Todos 1/3 · Writing the tests"

    # ExitPlanMode asks for approval: the plan as Markdown, "Approve plan" / "Keep planning".
    conn.emit(*_tool("plan-1", "ExitPlanMode", {"plan": PLAN}),
              ToolApprovalRequestEvent(approval_id="ap-plan", tool_call_id="plan-1", tool_name="ExitPlanMode",
                                       input={"plan": PLAN}))
    approval = window.approval_card
    await until(lambda: window.approval_waiting() and approval.armed)
    assert approval.title.text() == "The agent's plan is ready"
    assert (approval.allow_button.text(), approval.deny_button.text()) == ("Approve plan", "Keep planning")
    # The plan shows once: in the transcript's plan card, titled by its own heading; the
    # approval card points to it.
    assert "Read it above" in approval.input_label.text() and "Index messages" not in approval.input_label.text()
    plan_card = window.message_view.rows()[-1].findChild(PlanCard)
    assert plan_card is not None and plan_card.header.text() == "Search: the plan"
    assert plan_card.input_label.textFormat() == Qt.TextFormat.MarkdownText
    assert plan_card.input_label.text() == PLAN.split("\n", 2)[2]
    await asyncio.sleep(0.15)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "todo_card_and_plan.png"))
    qtbot.mouseClick(approval.deny_button, Qt.MouseButton.LeftButton)
    await until(lambda: conn.approvals)
    assert conn.approvals[0][0] == "ap-plan" and conn.approvals[0][1].approved is False
    await until(lambda: not window.approval_waiting())
    conn.complete("I'll keep planning.")
    await until(lambda: not window.is_streaming())
    assert not header.todo_label.isVisibleTo(window)

    # A later approval of another tool has the ordinary words again.
    approval.show_approval({"approval_id": "x", "tool_name": "Bash", "input": {"command": "ls"}})
    assert (approval.allow_button.text(), approval.deny_button.text()) == ("Allow", "Deny")
    approval.approval = None

    # Reopened from the database: the same cards.
    window.message_view.reload()
    row = window.message_view.rows()[-1]
    assert row.findChild(TodoCard).header.text() == "Todo list · 1 of 3 done"
    assert row.findChild(PlanCard) is not None
    assert "The context was full" in row.findChild(CompactionDivider).label.text()
    window.close()


@pytest.mark.parametrize(("plan", "heading", "body"), [
    ("# Plan\n\n1. Do it\n", "Plan", "1. Do it\n"),
    ("  ### Fix the bug ###\nStep one", "Fix the bug", "Step one"),
    ("1. No heading\n# Later heading", "", "1. No heading\n# Later heading"),
    ("#hashtag is not a heading", "", "#hashtag is not a heading"),
])
def test_a_plan_card_is_titled_by_the_plan_s_opening_heading(plan: str, heading: str, body: str) -> None:
    assert split_plan_heading(plan) == (heading, body)


@pytest.mark.parametrize(("data", "expected"), [
    ({"state": "done", "tokens_before": 1200, "trigger": "manual"},
     "— As asked, %s tokens of earlier messages were compacted into a summary —"),
    ({"state": "done", "tokens_before": 1200},
     "— %s tokens of earlier messages were compacted into a summary to free context —"),
    ({"state": "done", "anchor": None}, "— Earlier messages were compacted into a summary to free context —"),
    ({"state": "done", "tokens_before": "lots", "trigger": "auto"},
     "— Earlier messages were compacted into a summary to free context —"),
])
def test_the_compaction_divider_says_what_was_compacted(qapp: Any, data: dict[str, Any], expected: str) -> None:
    divider = CompactionDivider(data)
    text = expected % QLocale().toString(1200) if "%s" in expected else expected
    assert divider.label.text() == text


async def test_an_acp_agents_plan_is_a_todo_card_and_the_headers_progress(controller: Any, ui_core: Any,
                                                                           qtbot: Any, tmp_path: Any) -> None:
    """ACP's ``plan`` update (what claude-agent-acp makes of TodoWrite) through the real
    adapter: the todo card by its kind, not by Claude Code's tool name, and the header's
    progress."""
    from acp import schema

    from cherry_desktop.core.ai.runtime.acp.stream_adapter import AcpStreamAdapter

    driver = ScriptedDriver(type="acp", supports_redirect=False)
    ui_core.agent_runtime.registry.register(driver, replace=True)
    (tmp_path / "acp-ws").mkdir()
    repos = ui_core.repos
    add_model(repos, "demo::sonnet")
    agent = repos.agents.create_agent(type="acp", name="Claude over ACP", model="demo::sonnet")
    ws = repos.agents.create_workspace(name="ws", path=str(tmp_path / "acp-ws"), agent_id=agent.id)
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name="Plan")
    window = controller.open_window(session_topic_id(session.id))
    conn = await send_turn(qtbot, window, driver, "make a plan")
    adapter = AcpStreamAdapter()
    adapter.start_turn(0.0)
    entries = [schema.PlanEntry(content=t["content"], status=t["status"], priority="medium") for t in TODOS]
    conn.emit(*adapter.adapt(schema.AgentPlanUpdate(session_update="plan", entries=entries), 0.1))
    await until(lambda: window.message_view.rows()[-1].findChild(TodoCard) is not None)
    card = window.message_view.rows()[-1].findChild(TodoCard)
    assert card.header.text() == "Todo list · 1 of 3 done"
    header = window.session_header
    await until(lambda: header.todo_label.isVisibleTo(window))
    assert header.todo_label.text().startswith("Todos 1/3")
