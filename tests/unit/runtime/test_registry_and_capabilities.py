"""Driver registry pairing and descriptor invariants (`adding-an-agent-runtime.md`)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import get_args

import pytest

from cherry_desktop.core.ai.runtime.capabilities import AGENT_RUNTIME_CAPABILITIES, AGENT_TYPES, ToolCategory
from cherry_desktop.core.ai.runtime.register_drivers import (
    DriverNotRegisteredError,
    RuntimeDriverRegistry,
    register_drivers,
)
from cherry_desktop.core.ai.runtime.types import PermissionMode
from cherry_desktop.core.data.records import ModelRecord, ProviderRecord
from tests.fakes.scripted_driver import ScriptedDriver

ROOT = Path(__file__).resolve().parents[3]


def test_every_agent_type_resolves_to_a_registered_driver() -> None:
    registry = RuntimeDriverRegistry()
    failed = register_drivers(registry)
    assert failed == []
    for agent_type in AGENT_TYPES:
        driver = registry.get(agent_type)
        assert driver.type == agent_type
        assert "agent-session" in driver.capabilities
    assert "scripted" not in registry.types()  # the test driver is never shipped


def test_registering_drivers_does_not_import_the_sdk() -> None:
    code = textwrap.dedent("""
        import sys
        from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverRegistry, register_drivers
        reg = RuntimeDriverRegistry()
        assert register_drivers(reg) == []
        assert 'claude_agent_sdk' not in sys.modules, 'sdk imported'
        print('ok')
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_a_missing_driver_is_reported_not_fatal() -> None:
    registry = RuntimeDriverRegistry()
    failed = register_drivers(registry, agent_types=["claude-code", "ghost"],
                              classes={"claude-code": "tests.fakes.scripted_driver:ScriptedDriver",
                                       "ghost": "no.such.module:Driver"})
    assert failed == ["ghost"]
    with pytest.raises(DriverNotRegisteredError):
        registry.get("ghost")


def test_registry_refuses_duplicates() -> None:
    registry = RuntimeDriverRegistry()
    registry.register(ScriptedDriver())  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        registry.register(ScriptedDriver())  # type: ignore[arg-type]


def test_descriptor_invariants() -> None:
    assert set(AGENT_RUNTIME_CAPABILITIES) == set(AGENT_TYPES)
    transports = [c.transport for c in AGENT_RUNTIME_CAPABILITIES.values()]
    assert len(set(transports)) == len(transports)
    for agent_type, caps in AGENT_RUNTIME_CAPABILITIES.items():
        assert caps.type == agent_type and caps.label_key and caps.label
        assert caps.permission_modes and caps.create_defaults.permission_mode in caps.permission_modes
        names = [t.name for t in caps.builtin_tools]
        assert len(names) == len(set(names)), "tool names are unique"
        # every mutating/executing tool asks by default (fail closed)
        for tool in caps.builtin_tools:
            if tool.category in ("write", "execute") and tool.name not in ("BashOutput",):
                assert tool.requires_approval, tool.name


def test_descriptor_labels_modes_and_commands_are_well_formed() -> None:
    label_keys = [c.label_key for c in AGENT_RUNTIME_CAPABILITIES.values()]
    assert len(set(label_keys)) == len(label_keys)
    for caps in AGENT_RUNTIME_CAPABILITIES.values():
        assert caps.label_key.startswith("agent.runtime.")
        assert set(caps.permission_modes) <= set(get_args(PermissionMode))
        assert len(set(caps.permission_modes)) == len(caps.permission_modes)
        assert {t.category for t in caps.builtin_tools} <= set(get_args(ToolCategory))
        # Slash commands are offered as typed: "/name", once each.
        assert all(c.startswith("/") and c[1:].isidentifier() for c in caps.slash_commands)
        assert len(set(caps.slash_commands)) == len(caps.slash_commands)


def test_steering_follows_the_runtime_and_each_catalog_is_the_descriptors() -> None:
    """claude-code steers through its PreToolUse hook, pi through its RPC ``steer``; ACP has no
    mid-turn steer (follow-ups queue). Each driver's tool catalog is its descriptor's builtin
    tools (one table for all)."""
    registry = RuntimeDriverRegistry()
    assert register_drivers(registry) == []
    for agent_type, caps in AGENT_RUNTIME_CAPABILITIES.items():
        assert caps.supports_steer == (agent_type != "acp"), agent_type
        catalog = registry.get(agent_type).list_available_tools()
        assert [(t.name, t.category, t.requires_approval) for t in catalog] == [
            (t.name, t.category, t.requires_approval) for t in caps.builtin_tools]


def test_claude_code_model_filter_fails_closed_without_a_provider() -> None:
    caps = AGENT_RUNTIME_CAPABILITIES["claude-code"]
    model = ModelRecord(unique_model_id="p::m", provider_id="p", model_id="m", name="m")
    anthropic = ProviderRecord(id="p", name="A", type="anthropic", base_url="", enabled=True, settings={})
    openai = ProviderRecord(id="p", name="O", type="openai-compatible", base_url="", enabled=True, settings={})
    assert caps.is_model_compatible(anthropic, model)
    assert not caps.is_model_compatible(None, model)
    # An OpenAI-compatible provider runs through Cherry's API gateway; a disabled one not at all.
    assert caps.is_model_compatible(openai, model) and caps.via_gateway(openai)
    assert not caps.is_model_compatible(dataclasses.replace(openai, enabled=False), model)
    assert not caps.via_gateway(anthropic)
    # One that also serves Anthropic Messages itself (it says so) is reached directly.
    serves_anthropic = ProviderRecord(id="p", name="G", type="openai-compatible", base_url="", enabled=True,
                                      settings={"anthropic_compatible": True})
    assert caps.is_model_compatible(serves_anthropic, model) and not caps.via_gateway(serves_anthropic)
    assert not AGENT_RUNTIME_CAPABILITIES["pi"].via_gateway(openai)


def test_pi_descriptor() -> None:
    caps = AGENT_RUNTIME_CAPABILITIES["pi"]
    assert "plan" not in caps.permission_modes
    assert caps.create_defaults.permission_mode == "acceptEdits"
    names = [t.name for t in caps.builtin_tools]
    # pi's own casing (lower case), its 0.73 tool set
    assert set(names) == {"read", "bash", "edit", "write", "grep", "find", "ls"}
    assert {t.name for t in caps.builtin_tools if t.requires_approval} == {"bash", "edit", "write"}


def test_pi_model_filter_fails_closed_without_an_endpoint() -> None:
    caps = AGENT_RUNTIME_CAPABILITIES["pi"]
    model = ModelRecord(unique_model_id="p::m", provider_id="p", model_id="m", name="m")
    anthropic = ProviderRecord(id="p", name="A", type="anthropic", base_url="", enabled=True, settings={})
    openai = ProviderRecord(id="p", name="O", type="openai-compatible", base_url="http://x/v1", enabled=True,
                            settings={})
    disabled = ProviderRecord(id="p", name="O", type="anthropic", base_url="", enabled=False, settings={})
    assert caps.is_model_compatible(anthropic, model)
    assert caps.is_model_compatible(openai, model)
    assert not caps.is_model_compatible(None, model)
    assert not caps.is_model_compatible(disabled, model)


def test_every_descriptor_label_and_tool_is_translated_in_every_locale() -> None:
    import xml.etree.ElementTree as ET

    for locale in ("en_US", "zh_CN", "zh_TW"):
        root = ET.parse(ROOT / "i18n" / f"{locale}.ts").getroot()
        table: dict[tuple[str, str], str] = {}
        for context in root.iter("context"):
            name = context.findtext("name") or ""
            for message in context.iter("message"):
                table[(name, message.findtext("source") or "")] = message.findtext("translation") or ""
        for caps in AGENT_RUNTIME_CAPABILITIES.values():
            assert table.get(("AgentRuntime", caps.label_key)), (locale, caps.label_key)
            for tool in caps.builtin_tools:
                key = f"{caps.label_key}.tool.{tool.name}"
                assert table.get(("AgentRuntime", key)), (locale, key)


def test_acp_descriptor_and_model_filter() -> None:
    """One ACP runtime for many agents: no steer, no catalog of its own (the agent's tools are
    its own), only the default mode (the agent asks; Cherry shows each ask); the model filter
    fails closed without an endpoint."""
    caps = AGENT_RUNTIME_CAPABILITIES["acp"]
    assert caps.transport == "acp" and caps.builtin_tools == ()
    assert caps.permission_modes == ("default",) and caps.create_defaults.permission_mode == "default"
    assert not caps.supports_steer and not caps.own_login
    model = ModelRecord(unique_model_id="p::m", provider_id="p", model_id="m", name="m")
    anthropic = ProviderRecord(id="p", name="A", type="anthropic", base_url="", enabled=True, settings={})
    assert caps.is_model_compatible(anthropic, model)
    assert not caps.is_model_compatible(None, model)
    assert not caps.is_model_compatible(dataclasses.replace(anthropic, enabled=False), model)
    other = ProviderRecord(id="p", name="X", type="gemini", base_url="", enabled=True, settings={})
    assert not caps.is_model_compatible(other, model)


def test_the_acp_driver_does_not_load_the_acp_library_on_import() -> None:
    """Registering the drivers at start must not cost the ACP client's ~0.6 s import."""
    code = textwrap.dedent("""
        import sys
        from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverRegistry, register_drivers
        assert register_drivers(RuntimeDriverRegistry()) == []
        print("acp" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"
