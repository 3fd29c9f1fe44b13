"""ACP session updates -> runtime events (`AcpStreamAdapter`, pure) and Cherry's answers to
permission requests (`AcpApprovals`): the agent's own options picked by kind, never an allow
the user did not give."""

from __future__ import annotations

import asyncio

from acp import schema

from cherry_desktop.core.ai.runtime.acp.approvals import AcpApprovals
from cherry_desktop.core.ai.runtime.acp.stream_adapter import AcpStreamAdapter
from cherry_desktop.core.ai.runtime.event_outlet import EventOutlet
from cherry_desktop.core.ai.runtime.events import ChunkEvent, ContextUsageEvent, ToolApprovalRequestEvent, UsageEvent
from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.mcp.config import ToolPolicy
from cherry_desktop.core.mcp.policy import ToolClass
from cherry_desktop.core.mcp.toolset import AgentToolset


def _types(events: list[object]) -> list[str]:
    return [e.chunk.type if isinstance(e, ChunkEvent) else e.type for e in events]  # type: ignore[attr-defined]


def _text(text: str) -> schema.AgentMessageChunk:
    return schema.AgentMessageChunk(session_update="agent_message_chunk",
                                    content=schema.TextContentBlock(type="text", text=text))


def test_a_turn_of_thought_text_and_a_denied_edit() -> None:
    adapter = AcpStreamAdapter(denied_tool_ids={"t1"})
    events = adapter.start_turn(0.0)
    events += adapter.adapt(schema.AgentThoughtChunk(session_update="agent_thought_chunk",
                                                     content=schema.TextContentBlock(type="text", text="hmm")), 0.1)
    events += adapter.adapt(_text(""), 0.1)  # claude-agent-acp opens each message with an empty chunk
    events += adapter.adapt(_text("Writing."), 0.2)
    events += adapter.adapt(schema.ToolCallStart(session_update="tool_call", tool_call_id="t1", title="Write",
                                                 kind="edit", status="pending", raw_input={},
                                                 field_meta={"claudeCode": {"toolName": "Write"}}), 0.3)
    events += adapter.adapt(schema.ToolCallProgress(
        session_update="tool_call_update", tool_call_id="t1", title="Write a.txt",
        raw_input={"file_path": "a.txt", "content": "x"},
        content=[schema.FileEditToolCallContent(type="diff", path="a.txt", new_text="x")]), 0.4)
    events += adapter.adapt(schema.ToolCallProgress(session_update="tool_call_update", tool_call_id="t1",
                                                    status="failed", raw_output="The user rejected it"), 0.5)
    events += adapter.adapt(schema.UsageUpdate(session_update="usage_update", used=42, size=1000), 0.6)
    events += adapter.end_turn(0.7, schema.Usage(total_tokens=3, input_tokens=2, output_tokens=1), "m")
    assert _types(events) == [
        "start-step", "reasoning-start", "reasoning-delta", "reasoning-end", "text-start", "text-delta",
        "text-end", "tool-input-start", "tool-input-available", "tool-output-denied", "finish-step", "usage",
        "context-usage"]
    start, available = events[7].chunk, events[8].chunk  # type: ignore[attr-defined]
    assert start.tool_name == available.tool_name == "Write"  # the agent's own name, not the title
    cherry = available.provider_metadata["cherry"]
    assert cherry["transport"] == "acp" and cherry["kind"] == "edit" and cherry["title"] == "Write a.txt"
    assert cherry["content"] == [{"type": "diff", "path": "a.txt", "new_text": "x"}]
    assert available.input == {"file_path": "a.txt", "content": "x"}
    usage = next(e for e in events if isinstance(e, UsageEvent))
    assert (usage.input_tokens, usage.output_tokens, usage.model) == (2, 1, "m")
    assert events[-1] == ContextUsageEvent(used_tokens=42, max_tokens=1000)


def test_updates_outside_a_turn_are_history_replay_and_ignored() -> None:
    """``session/load`` replays the conversation as updates: none of it is a new answer."""
    adapter = AcpStreamAdapter()
    assert adapter.adapt(_text("an old answer"), 0.0) == []
    assert adapter.adapt(schema.ToolCallStart(session_update="tool_call", tool_call_id="old", title="Read"), 0.0) == []
    assert adapter.end_turn(0.0, None, None) == []


def test_a_tool_still_running_at_the_end_of_a_cancelled_turn_is_closed() -> None:
    adapter = AcpStreamAdapter()
    adapter.start_turn(0.0)
    adapter.adapt(schema.ToolCallStart(session_update="tool_call", tool_call_id="t", title="bash", kind="execute",
                                       raw_input={"command": "sleep 9"}), 0.1)
    events = adapter.end_turn(0.2, None, None)
    assert _types(events) == ["tool-output-error", "finish-step"]


class _Owner:
    def __init__(self) -> None:
        self.disabled_tools: set[str] = set()
        self.stopping = False
        self.permission_mode = "default"


_OPTIONS = [schema.PermissionOption(option_id="always", name="Always Allow", kind="allow_always"),
            schema.PermissionOption(option_id="once", name="Allow", kind="allow_once"),
            schema.PermissionOption(option_id="no", name="Reject", kind="reject_once")]


def _picked(response: schema.RequestPermissionResponse) -> str:
    outcome = response.outcome
    return outcome.option_id if isinstance(outcome, schema.AllowedOutcome) else outcome.outcome


async def test_each_answer_picks_the_agents_option_of_its_kind() -> None:
    owner, outlet, denied = _Owner(), EventOutlet(), set[str]()
    approvals = AcpApprovals(owner, outlet=outlet, denied_tool_ids=denied)
    cards: list[str] = []

    async def ask(tool_id: str, decision: ApprovalDecision) -> str:
        task = asyncio.ensure_future(approvals.decide(tool_id, "Write", {}, _OPTIONS, lambda: cards.append(tool_id)))
        await asyncio.sleep(0)
        (request,) = outlet.take_queued()
        assert isinstance(request, ToolApprovalRequestEvent) and request.tool_call_id == tool_id
        assert approvals.respond(request.approval_id, decision)
        assert not approvals.respond(request.approval_id, decision)  # answered once only
        return _picked(await task)

    assert await ask("a", ApprovalDecision(approved=True)) == "once"
    assert await ask("b", ApprovalDecision(approved=False, reason="no thanks")) == "no"
    assert denied == {"b"}
    # "Always" is Cherry's grant: the agent is told "once", so it asks again next time and
    # Cherry's policy (a tool turned off since, a revoked grant) still decides.
    assert await ask("c", ApprovalDecision(approved=True, always_allow=True)) == "once"
    assert approvals.always_allowed_tools == {"Write"}
    # Granted for the session: the next call of the tool is allowed once, without a card.
    assert _picked(await approvals.decide("d", "Write", {}, _OPTIONS, lambda: cards.append("d"))) == "once"
    assert cards == ["a", "b", "c"]


async def test_disabled_tools_stops_and_closes_reject_without_a_card() -> None:
    owner, outlet = _Owner(), EventOutlet()
    approvals = AcpApprovals(owner, outlet=outlet, denied_tool_ids=set())
    approvals.always_allowed_tools.add("Bash")
    owner.disabled_tools.add("Bash")  # the disabled check comes before a grant
    assert _picked(await approvals.decide("x", "Bash", {}, _OPTIONS, lambda: None)) == "no"
    owner.disabled_tools.clear()
    owner.stopping = True
    assert _picked(await approvals.decide("y", "Write", {}, _OPTIONS, lambda: None)) == "no"
    owner.stopping = False
    held = asyncio.ensure_future(approvals.decide("z", "Write", {}, _OPTIONS, lambda: None))
    await asyncio.sleep(0)
    approvals.resolve_all()  # Stop, close or the agent's exit
    assert _picked(await held) == "no"
    # An agent offering no reject option gets the request cancelled, never an allow.
    only_allow = [o for o in _OPTIONS if o.kind.startswith("allow")]
    held = asyncio.ensure_future(approvals.decide("w", "Write", {}, only_allow, lambda: None))
    await asyncio.sleep(0)
    approvals.resolve_all()
    assert _picked(await held) == "cancelled"
    assert outlet.take_queued()  # the held ones had cards


class _Rules:
    def __init__(self) -> None:
        self.rules: dict[str, ToolPolicy] = {}

    def rule_for(self, tool_name: str) -> ToolPolicy | None:
        return self.rules.get(tool_name)


async def test_mcp_tools_and_skills_follow_the_one_approval_policy() -> None:
    """By the agent's ``mcp__<server>__<tool>`` name: Cherry-safe runs without a card, a rule's
    allow runs and its deny is refused, a disabled tool is refused, an ask-tool asks; a skill
    Cherry did not enable is refused, an enabled one loads."""
    owner, outlet, rules = _Owner(), EventOutlet(), _Rules()
    report, time_tool = "mcp__cherry-tools__report_artifacts", "mcp__time__get_current_time"
    toolset = AgentToolset(rules=rules, cherry_classes={report: ToolClass.CHERRY_SAFE})
    approvals = AcpApprovals(owner, outlet=outlet, denied_tool_ids=set(), toolset=toolset,
                             skill_names=["cherry-skills:greeting"])
    cards: list[str] = []

    async def decide(tool_id: str, name: str, tool_input: dict[str, object] | None = None) -> str:
        return _picked(await approvals.decide(tool_id, name, tool_input or {}, _OPTIONS, lambda: cards.append(tool_id)))

    assert await decide("a", report) == "once"
    rules.rules[time_tool] = ToolPolicy.ALLOW
    assert await decide("b", time_tool) == "once"
    rules.rules[time_tool] = ToolPolicy.DENY
    assert await decide("c", time_tool) == "no"
    owner.disabled_tools.add(report)
    assert await decide("d", report) == "no"
    assert await decide("e", "Skill", {"skill": "planted"}) == "no"
    assert cards == [] and not outlet.take_queued()
    rules.rules[time_tool] = ToolPolicy.ASK
    held = asyncio.ensure_future(decide("f", time_tool))
    await asyncio.sleep(0)
    (request,) = outlet.take_queued()
    assert isinstance(request, ToolApprovalRequestEvent) and request.tool_name == time_tool
    assert approvals.respond(request.approval_id, ApprovalDecision(approved=True))
    assert await held == "once" and cards == ["f"]
    # An enabled skill loads without a card (it asks only so Cherry can refuse the others).
    assert await decide("g", "Skill", {"skill": "cherry-skills:greeting"}) == "once"
    assert cards == ["f"] and not outlet.take_queued()


async def test_the_relay_runs_only_calls_cherry_allowed() -> None:
    """`admit`: an allowed tool runs; an ask-tool's call runs once, and only after Cherry allowed
    that call (by its id; by its name when the call names none); a denied tool never."""
    owner, outlet, rules = _Owner(), EventOutlet(), _Rules()
    time_tool = "mcp__time__get_current_time"
    approvals = AcpApprovals(owner, outlet=outlet, denied_tool_ids=set(), toolset=AgentToolset(rules=rules))
    assert approvals.admit(time_tool, "t1") is not None  # nobody allowed it
    held = asyncio.ensure_future(approvals.decide("t1", time_tool, {}, _OPTIONS, lambda: None))
    await asyncio.sleep(0)
    (request,) = outlet.take_queued()
    assert approvals.admit(time_tool, "t1") is not None  # still on the card
    assert approvals.respond(request.approval_id, ApprovalDecision(approved=True))
    assert _picked(await held) == "once"
    assert approvals.admit(time_tool, "other") is not None
    assert approvals.admit(time_tool, "t1") is None
    assert approvals.admit(time_tool, "t1") is not None  # once only
    approvals.always_allowed_tools.add(time_tool)
    assert _picked(await approvals.decide("t2", time_tool, {}, _OPTIONS, lambda: None)) == "once"
    assert approvals.admit(time_tool, None) is None and approvals.admit(time_tool, None) is not None
    rules.rules[time_tool] = ToolPolicy.ALLOW
    assert approvals.admit(time_tool, None) is None
    rules.rules[time_tool] = ToolPolicy.DENY
    assert approvals.admit(time_tool, None) is not None


def test_a_plan_becomes_a_todo_list_part_of_kind_plan() -> None:
    from cherry_desktop.core.views.tool_view import is_todo_list

    adapter = AcpStreamAdapter()
    adapter.start_turn(0.0)
    events = adapter.adapt(schema.AgentPlanUpdate(session_update="plan", entries=[
        schema.PlanEntry(content="Read", status="completed", priority="high"),
        schema.PlanEntry(content="Write", status="in_progress", priority="medium")]), 0.1)
    assert _types(events) == ["tool-input-start", "tool-input-available", "tool-output-available"]
    available = events[1].chunk  # type: ignore[attr-defined]
    assert available.input == {"todos": [{"content": "Read", "status": "completed", "activeForm": "Read"},
                                         {"content": "Write", "status": "in_progress", "activeForm": "Write"}]}
    assert is_todo_list(available.tool_name, available.provider_metadata)
    assert not is_todo_list("Write", {"cherry": {"transport": "acp", "kind": "edit"}})


def test_available_commands_become_the_composers_slash_commands() -> None:
    from cherry_desktop.core.ai.runtime.events import SlashCommandsEvent

    adapter = AcpStreamAdapter()
    update = schema.AvailableCommandsUpdate(session_update="available_commands_update", available_commands=[
        schema.AvailableCommand(name="web", description="Search the web"),
        schema.AvailableCommand(name="/plan", description="Plan first"),
        schema.AvailableCommand(name="web", description="twice")])
    assert adapter.adapt(update, 0.0) == [SlashCommandsEvent(("/web", "/plan"))]  # outside a turn too
