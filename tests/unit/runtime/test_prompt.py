"""`build_agent_runtime_prompt`: block order, built-in resolution, persona files, variables."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from cherry_desktop.core.ai.runtime import prompt as P
from cherry_desktop.core.ai.runtime.builtin_agents import (
    FAIL_SAFE_INSTRUCTIONS,
    SUPPORTED_LOCALES,
    bundle_dir,
    list_builtin_agent_ids,
    load_builtin_agent,
    normalize_locale,
)
from cherry_desktop.core.data.records import AgentRecord

NOW = datetime(2026, 11, 30, 9, 0, 0)


def _agent(**kw: object) -> AgentRecord:
    fields: dict[str, object] = {
        "id": "a1", "type": "claude-code", "name": "Ada", "description": "", "instructions": "",
        "built_in_id": None, "model": None, "permission_mode": "default", "disabled_tools": [],
        "config": {}, "created_at": 0, "updated_at": 0,
    }
    fields.update(kw)
    return AgentRecord(**fields)  # type: ignore[arg-type]


def _build(tmp_path: Path, agent: AgentRecord, **kw: object) -> P.AgentRuntimePrompt:
    args: dict[str, object] = {"agent": agent, "workspace_path": tmp_path / "ws", "agent_data_dir": tmp_path / "data",
                                   "model_name": "Sonnet", "username": "bob", "language": "en-US", "now": NOW}
    args.update(kw)
    (tmp_path / "ws").mkdir(exist_ok=True)
    return P.build_agent_runtime_prompt(**args)  # type: ignore[arg-type]


def test_all_nine_blocks_in_order(tmp_path: Path) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "system.md").write_text("Custom base for {{username}}.")
    out = _build(tmp_path, _agent(instructions="Be {{agent_name}} on {{model_name}} at {{date}}."),
                 channel=P.LinkedChannel("Slack #ops"), citation_tools=["mcp__cherry-tools__kb_search"],
                 workspace_instructions="Use tabs.")
    assert out.base == "Custom base for bob."
    markers = [P.BLOCK_PRECEDENCE, P.BLOCK_IDENTITY, P.BLOCK_WORKSPACE, P.BLOCK_AGENT, P.BLOCK_ENVIRONMENT,
               P.BLOCK_CHANNEL, P.BLOCK_CITATIONS, P.BLOCK_ARTIFACTS, P.BLOCK_LANGUAGE]
    positions = [out.append.index(m + "\n") for m in markers]
    assert positions == sorted(positions)
    assert "Be Ada on Sonnet at 2026-11-30." in out.append
    assert "Slack #ops" in out.append and "kb_search" in out.append and "Use tabs." in out.append
    assert P.REPORT_ARTIFACTS_TOOL in out.append and "Respond in English" in out.append


def test_optional_blocks_are_left_out(tmp_path: Path) -> None:
    out = _build(tmp_path, _agent())
    assert out.base is None  # native base kept, no environment block
    for marker in (P.BLOCK_PRECEDENCE, P.BLOCK_AGENT, P.BLOCK_ENVIRONMENT, P.BLOCK_CHANNEL, P.BLOCK_CITATIONS,
                   P.BLOCK_WORKSPACE):
        assert marker not in out.append
    assert P.BLOCK_IDENTITY in out.append and P.BLOCK_LANGUAGE in out.append


def test_builtin_agent_resolves_the_localized_bundle(tmp_path: Path) -> None:
    out = _build(tmp_path, _agent(built_in_id="assistant"), language="zh-TW")
    assert "通用助理" in out.append and "繁體中文" in out.append
    assert "bob" in out.append  # {{username}} resolved inside bundled text
    assert "{{" not in out.append


def test_user_instructions_stay_the_users(tmp_path: Path) -> None:
    out = _build(tmp_path, _agent(built_in_id="assistant", instructions="Only answer in haiku."))
    assert "Only answer in haiku." in out.append and "general-purpose assistant" not in out.append


def test_missing_bundle_gives_a_fail_safe_role(tmp_path: Path) -> None:
    out = _build(tmp_path, _agent(built_in_id="assistant"), bundle_directory=tmp_path / "nowhere")
    resolved = P.resolve_agent_instructions(_agent(built_in_id="assistant"), "en-US",
                                            bundle_directory=tmp_path / "nowhere")
    assert resolved.source == "fail-safe" and resolved.text == FAIL_SAFE_INSTRUCTIONS
    assert "You are Ada, a helpful assistant" in out.append


def test_persona_files_are_initialised_once_and_read(tmp_path: Path) -> None:
    _build(tmp_path, _agent(built_in_id="assistant"), language="zh-CN")
    data = tmp_path / "data"
    assert (data / "SOUL.md").read_text().startswith("# 灵魂")
    assert (data / "USER.md").exists() and (data / "memory" / "FACT.md").exists()
    (data / "memory" / "FACT.md").write_text("The build uses uv.")
    out = _build(tmp_path, _agent(built_in_id="assistant"))
    assert "The build uses uv." in out.append
    assert (data / "SOUL.md").read_text().startswith("# 灵魂")  # never overwritten


def test_unknown_variables_stay_visible() -> None:
    assert P.resolve_prompt_variables("hi {{username}} {{nope}}", {"username": "x"}) == "hi x {{nope}}"


def test_locale_normalisation() -> None:
    assert normalize_locale("zh_CN") == "zh-CN"
    assert normalize_locale("zh-Hant-HK") == "zh-TW"
    assert normalize_locale("fr-FR") == "en-US"
    assert normalize_locale("") == "en-US"


def test_every_bundled_agent_is_complete_in_every_locale() -> None:
    ids = list_builtin_agent_ids()
    assert "assistant" in ids
    for agent_id in ids:
        data = json.loads((bundle_dir() / f"{agent_id}.json").read_text(encoding="utf-8"))
        assert set(SUPPORTED_LOCALES) <= set(data["locales"])
        for loc in SUPPORTED_LOCALES:
            d = load_builtin_agent(agent_id, loc)
            assert d is not None and d.locale == loc and d.name and d.instructions and d.soul and d.user
