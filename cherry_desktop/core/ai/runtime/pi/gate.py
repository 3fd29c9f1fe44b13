"""Cherry's tool-approval gate: an inline pi extension Cherry writes and passes with ``-e``.

pi runs its tools itself. Its extension API has a blocking ``tool_call`` hook (fired after
``tool_execution_start``, before the tool runs; a throwing handler blocks the tool: pi's
fail-safe), and in RPC mode an extension's ``ctx.ui.input`` becomes an
``extension_ui_request`` the RPC client answers. The gate asks Cherry about EVERY tool call
that way and lets it run only on the exact answer ``allow``: a cancelled, missing or garbled
answer blocks it. Policy (permission mode, disabled tools, approval defaults) stays in Python
(`policy.py`), so it changes live without touching pi.

Discovery stays off (``--no-extensions``); an explicit ``-e`` path still loads, which is the
one extension pi runs. On session start the gate announces itself (a ``notify`` carrying
`GATE_READY`): the connection refuses to start when that announcement did not arrive (fail
closed: no gate, no tools). Before pi's first run of the agent (``before_agent_start``) it asks
Cherry for the provider's key (an ``input`` titled `KEY_TITLE`, answered over the RPC pipe) and
registers it for the provider. The key is therefore never in pi's environment, which its tools
inherit (``printenv`` in a bash call, or ``/proc/<pi>/environ``), nor in any file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from cherry_desktop.core.messages.json_value import JsonObject, JsonValue

GATE_FILE_NAME = "cherry-approval-gate.ts"
GATE_READY = "cherry-gate:ready"
APPROVAL_TITLE = "cherry-approval"
#: The gate asks Cherry for the provider's key with this title, once per pi, before its first agent run.
KEY_TITLE = "cherry-provider-key"
#: The provider `models.json` declares (its `apiKey` names an env var holding a placeholder).
PROVIDER_NAME = "cherry"
ALLOW = "allow"
DENY_PREFIX = "deny:"

GATE_SOURCE = f"""// Written by Cherry Desktop for each pi connection; do not edit.
export default function (pi) {{
  pi.on("session_start", async (_event, ctx) => {{
    ctx.ui.notify({json.dumps(GATE_READY)}, "info");
  }});
  // The provider's key comes over the RPC pipe, before the first model request: not in pi's
  // environment, which its tools (bash) inherit, nor in a file. (Not at session_start: pi
  // reads its RPC input only once started, and a pending answer alone lets Node exit.)
  let keyed = false;
  pi.on("before_agent_start", async (_event, ctx) => {{
    if (keyed) return undefined;
    const key = await ctx.ui.input({json.dumps(KEY_TITLE)}, "");
    if (typeof key === "string" && key !== "") pi.registerProvider({json.dumps(PROVIDER_NAME)}, {{ apiKey: key }});
    keyed = true;
    return undefined;
  }});
  pi.on("tool_call", async (event, ctx) => {{
    const request = JSON.stringify({{ toolCallId: event.toolCallId, toolName: event.toolName, input: event.input }});
    const answer = await ctx.ui.input({json.dumps(APPROVAL_TITLE)}, request);
    if (answer === {json.dumps(ALLOW)}) return undefined;
    const reason = typeof answer === "string" && answer.startsWith({json.dumps(DENY_PREFIX)})
      ? answer.slice({len(DENY_PREFIX)}) : "Cherry did not approve this tool call.";
    return {{ block: true, reason }};
  }});
}}
"""


def write_gate(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / GATE_FILE_NAME
    path.write_text(GATE_SOURCE, encoding="utf-8")
    return path


@dataclass(frozen=True)
class GateRequest:
    """One tool call the gate holds until Cherry answers."""

    ui_request_id: str
    tool_call_id: str
    tool_name: str
    input: JsonValue


def parse_gate_request(record: JsonObject) -> GateRequest | None:
    """The gate's ``extension_ui_request``, or None for any other UI request."""
    if record.get("method") != "input" or record.get("title") != APPROVAL_TITLE:
        return None
    try:
        payload = json.loads(str(record.get("placeholder") or ""))
    except ValueError:
        payload = {}
    if not isinstance(payload, dict):
        payload = {}
    return GateRequest(
        ui_request_id=str(record.get("id")),
        tool_call_id=str(payload.get("toolCallId") or ""),
        tool_name=str(payload.get("toolName") or ""),
        input=payload.get("input"),
    )


def gate_answer(ui_request_id: str, *, allow: bool, reason: str | None = None) -> JsonObject:
    value = ALLOW if allow else f"{DENY_PREFIX}{reason or 'The user denied this tool call.'}"
    return {"type": "extension_ui_response", "id": ui_request_id, "value": value}


def is_key_request(record: JsonObject) -> bool:
    return record.get("method") == "input" and record.get("title") == KEY_TITLE


def key_answer(ui_request_id: str, key: str) -> JsonObject:
    """The provider's key for the gate ("" when there is none: pi keeps the placeholder)."""
    return {"type": "extension_ui_response", "id": ui_request_id, "value": key}


def is_gate_ready(record: JsonObject) -> bool:
    return record.get("method") == "notify" and record.get("message") == GATE_READY
