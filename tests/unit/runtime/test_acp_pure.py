"""The ACP runtime's pure parts: which agent an agent runs, where its command is found, what its
child's environment holds (no key for an agent that takes it over ACP), and the CLI's refusal
of an unknown agent name."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cherry_desktop.app import main
from cherry_desktop.core.ai.runtime.acp.install import AcpInstallation, app_agent, find_agent
from cherry_desktop.core.ai.runtime.acp.launch import OPENCODE_KEY_ENV, build_acp_launch
from cherry_desktop.core.ai.runtime.acp_presets import (
    ACP_PRESETS,
    CLAUDE_AGENT_ACP,
    OPENCODE,
    AcpConfigError,
    agent_choice,
)
from cherry_desktop.core.ai.runtime.node import RuntimeUnavailableError
from cherry_desktop.core.ai.runtime.types import RuntimeConnectInput, RuntimeSessionContext, RuntimeValidationError
from cherry_desktop.core.data.records import AgentRecord, AgentSessionRecord, ProviderRecord, WorkspaceRecord
from cherry_desktop.core.mcp.toolset import AgentToolset

SECRET = "sk-ant-secret-never-in-env-5c1e"


def _agent(config: dict[str, object]) -> AgentRecord:
    return AgentRecord(id="agent-acp", type="acp", name="A", description="", instructions="", built_in_id=None,
                       model="p::m1", permission_mode="default", disabled_tools=[], config=config,
                       created_at=0, updated_at=0)


def _input(tmp_path: Path, config: dict[str, object], provider_type: str = "anthropic") -> RuntimeConnectInput:
    agent = _agent(config)
    workspace = tmp_path / "ws"
    workspace.mkdir(exist_ok=True)
    session = AgentSessionRecord(id="s", agent_id=agent.id, workspace_id="w", name="s", model=agent.model,
                                 created_at=0, updated_at=0)
    provider = ProviderRecord(id="p", name="P", type=provider_type, base_url="http://127.0.0.1:9", enabled=True,
                              settings={})
    context = RuntimeSessionContext(session=session, agent=agent,
                                    workspace=WorkspaceRecord(id="w", agent_id=agent.id, name="w",
                                                              path=str(workspace), kind="user"),
                                    workspace_path=workspace, agent_data_dir=tmp_path / "data", model_id=agent.model,
                                    provider=provider)
    return RuntimeConnectInput(context=context, resume_token=None, permission_mode="default",
                               disabled_tools=frozenset(), get_api_key=lambda: SECRET,
                               get_last_resume_token=lambda: None)


def test_the_agent_setting_picks_a_preset_or_a_custom_command() -> None:
    assert agent_choice(_agent({})).preset is CLAUDE_AGENT_ACP
    assert agent_choice(_agent({"acp_agent": "opencode"})).preset is OPENCODE
    custom = agent_choice(_agent({"acp_command": ["my-agent", "--acp"], "acp_dialect": "opencode"}))
    assert custom.preset is None and custom.command == ("my-agent", "--acp") and custom.dialect == "opencode"
    for bad in ({"acp_agent": "nope"}, {"acp_command": "not a list"}, {"acp_command": ["x"], "acp_dialect": "?"}):
        with pytest.raises(AcpConfigError):
            agent_choice(_agent(bad))


def test_a_missing_agent_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    with pytest.raises(RuntimeUnavailableError) as caught:
        find_agent(agent_choice(_agent({})), tmp_path / "no-install")
    assert caught.value.code == "acp-agent-missing"
    with pytest.raises(RuntimeUnavailableError) as caught:
        find_agent(agent_choice(_agent({"acp_command": ["no-such-acp-agent"]})), tmp_path)
    assert caught.value.code == "acp-agent-missing"


def test_only_the_pinned_version_under_the_prefix_is_used(tmp_path: Path) -> None:
    package = tmp_path / "claude-agent-acp" / "node_modules" / "@zed-industries" / "claude-agent-acp"
    (package / "dist").mkdir(parents=True)
    (package / "dist" / "index.js").write_text("")
    (package / "package.json").write_text(json.dumps({"version": "0.0.1"}))
    assert app_agent(tmp_path / "claude-agent-acp", CLAUDE_AGENT_ACP) is None
    (package / "package.json").write_text(json.dumps({"version": CLAUDE_AGENT_ACP.version}))
    found = app_agent(tmp_path / "claude-agent-acp", CLAUDE_AGENT_ACP)
    assert found is not None and found.argv[-1] == str((package / "dist" / "index.js").absolute())


def test_claude_agent_gets_its_key_over_acp_not_in_its_environment(tmp_path: Path) -> None:
    launch = build_acp_launch(_input(tmp_path, {}), choice=agent_choice(_agent({})),
                              installation=AcpInstallation(argv=("agent",), source="path"), homes=tmp_path / "homes")
    assert SECRET not in json.dumps(launch.env)
    assert launch.auth_meta == {"gateway": {"baseUrl": "http://127.0.0.1:9", "headers": {"x-api-key": SECRET}}}
    assert SECRET not in repr(launch)
    # A Cherry-owned home per agent: the user's own config is never read.
    assert launch.env["HOME"] == str(tmp_path / "homes" / "agent-acp")
    assert launch.env["CLAUDE_CONFIG_DIR"].startswith(launch.env["HOME"])


def test_claude_agent_gets_only_cherrys_skills_and_servers_and_an_ambiguous_toolset_never_starts(
        tmp_path: Path) -> None:
    skill = tmp_path / "store" / "greeting"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: greeting\ndescription: d\n---\nhi\n")
    config: dict[str, object] = {"skills": ["greeting"], "mcps": ["srv-1"]}
    install = AcpInstallation(argv=("agent",), source="path")
    connect = replace(_input(tmp_path, config), tools=AgentToolset(skills=(skill,)))
    launch = build_acp_launch(connect, choice=agent_choice(_agent(config)), installation=install,
                              homes=tmp_path / "homes")
    options = launch.session_meta()["claudeCode"]["options"]  # type: ignore[index, call-overload]
    assert options["strictMcpConfig"] is True  # never a workspace's .mcp.json
    assert options["settings"] == {"permissions": {"ask": ["Skill"]}}  # every skill load asks Cherry
    [plugin] = options["plugins"]
    assert (Path(plugin["path"]) / "skills" / "greeting" / "SKILL.md").is_file()
    assert launch.skill_names == ("cherry-skills:greeting",)
    assert (launch.mcp_servers, launch.skills) == (("srv-1",), ("greeting",))
    assert launch.session_meta()["systemPrompt"] == launch.system_prompt
    ambiguous = replace(connect, tools=AgentToolset(error="two tools are named mcp__a__b"))
    with pytest.raises(RuntimeValidationError) as caught:
        build_acp_launch(ambiguous, choice=agent_choice(_agent(config)), installation=install,
                         homes=tmp_path / "homes")
    assert caught.value.code == "mcp-tools-ambiguous"


def test_opencode_reads_its_key_from_one_variable_and_its_config_has_none(tmp_path: Path) -> None:
    """opencode takes no key over ACP: it reads it from its environment (the reported gap)."""
    config = {"acp_agent": "opencode"}
    launch = build_acp_launch(_input(tmp_path, config, "openai-compatible"), choice=agent_choice(_agent(config)),
                              installation=AcpInstallation(argv=("agent",), source="path"), homes=tmp_path / "homes")
    assert [k for k, v in launch.env.items() if SECRET in v] == [OPENCODE_KEY_ENV]
    assert SECRET not in launch.env["OPENCODE_CONFIG_CONTENT"]


def test_install_acp_agent_refuses_an_unknown_name(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["install-acp-agent", "nope", "--prefix", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert all(name in err for name in ACP_PRESETS)


def test_doctor_says_where_each_acp_agent_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cherry_desktop.core.app.doctor import DoctorReport, report_acp_agents
    from cherry_desktop.core.storage.paths import build_path_registry

    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    report = DoctorReport()
    report_acp_agents(report, build_path_registry(tmp_path / "data"))
    lines = [line for line in report.lines if line.startswith("acp agent")]
    assert len(lines) == len(ACP_PRESETS) and all("install-acp-agent" in line for line in lines)
    assert report.problems == []  # optional: a missing agent installs on first use
