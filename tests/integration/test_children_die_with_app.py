"""A runtime child never outlives the app: the real app core runs in a subprocess, streams a
turn from the real Claude Code CLI against a scripted server that this test runs (so the
server outlives the app), and is SIGKILLed mid-turn. The CLI is tracked by its pid."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from cherry_desktop.core.process import process_tie
from cherry_desktop.demo import HangReply, ScriptedModelServer, slow_text, tool_use
from tests.integration.headless_app import kill_mid_turn
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]

LONG_STORY = "Once upon a time " * 200


@pytest.mark.parametrize("stalled", [False, True], ids=["streaming", "stalled-api"])
async def test_sigkill_of_the_app_mid_turn_leaves_no_cli_and_keeps_rows(
    tmp_path: Path, model_server: ScriptedModelServer, stalled: bool
) -> None:
    if stalled:
        # Some text, then the model API stalls: the CLI would wait for it for minutes.
        model_server.default = HangReply(text_before="Once upon a time " * 20)
    else:
        model_server.default = slow_text(LONG_STORY, delay_s=0.02)
    outcome = await kill_mid_turn(tmp_path / "data", model_server.base_url)
    assert outcome.cli_alive_after_2s is False
    assert outcome.user_rows_kept
    assert outcome.saved_chars > 0  # the partial text checkpoint survived the kill


async def test_sigkill_of_the_app_mid_turn_leaves_no_acp_agent(
    tmp_path: Path, model_server: ScriptedModelServer, claude_acp_root: Path
) -> None:
    """The ACP agent (claude-agent-acp, whose Claude Code CLI runs in its process group) is
    tied to the app like every runtime child."""
    model_server.default = slow_text(LONG_STORY, delay_s=0.02)
    outcome = await kill_mid_turn(tmp_path / "data", model_server.base_url, mode="acp")
    assert outcome.cli_alive_after_2s is False
    assert outcome.user_rows_kept
    # Nor anything it started: no process is left working in the session's workspace (the
    # tie's watcher ends them once the agent is gone: wait for it, boundedly).
    def left() -> list[int]:
        return [process.pid for process in psutil.process_iter(["cwd", "status"])
                if (process.info["cwd"] or "").startswith(str(tmp_path))
                and process.info["status"] != psutil.STATUS_ZOMBIE]

    with contextlib.suppress(AssertionError):  # the assert below names what is left
        await until(lambda: not left(), limit=10)
    assert left() == []


async def test_sigkill_of_the_app_mid_tool_ends_the_tools_process_too(
    tmp_path: Path, model_server: ScriptedModelServer
) -> None:
    """The CLI starts its Bash tool in a session of its own: killing the CLI alone would leave
    the tool running. The tie ends every process the CLI started."""
    pid_file = tmp_path / "tool.pid"
    model_server.default = HangReply()
    model_server.enqueue(tool_use("Bash", {"command": f"echo $$ > {pid_file}; exec sleep 300",
                                           "description": "sleep"}, preamble="Running it now. " * 5))
    # Bypass mode (no approval): the tool starts while the turn runs.
    outcome = await kill_mid_turn(tmp_path / "data", model_server.base_url, stream_for_s=3.0, mode="bypass")
    assert outcome.cli_alive_after_2s is False
    tool_pid = int(pid_file.read_text())
    alive = psutil.pid_exists(tool_pid) and psutil.Process(tool_pid).status() != psutil.STATUS_ZOMBIE
    if alive:
        psutil.Process(tool_pid).kill()
    assert not alive


def _spawn_tied(mode: process_tie.TieMode, tmp_path: Path,
                command: tuple[str, ...] = ("sleep", "300")) -> tuple[subprocess.Popen[str], int]:
    """A parent process that starts a tied `command` (a `sleep`) and prints its pid."""
    code = (
        "import subprocess, sys, time\n"
        "from cherry_desktop.core.process import process_tie\n"
        f"cmd = process_tie.tied_command({list(command)!r}, process_tie.TieMode({mode.value!r}))\n"
        "child = subprocess.Popen(cmd, stdin=subprocess.PIPE)\n"
        "print(child.pid, flush=True)\n"
        "time.sleep(300)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
    assert parent.stdout is not None
    child_pid = int(parent.stdout.readline())
    return parent, child_pid


def _gone_within(pid: int, limit_s: float) -> bool:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


def _kill_parent_then_gone(parent: subprocess.Popen[str], child_pid: int) -> bool:
    """SIGKILL the parent; whether its tied child was gone within 5 s (killed here if not)."""
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    gone = _gone_within(child_pid, 5.0)
    if not gone:
        os.kill(child_pid, signal.SIGKILL)
    return gone


@pytest.mark.parametrize("mode", [process_tie.TieMode.PDEATHSIG, process_tie.TieMode.WATCHDOG])
def test_tied_child_is_its_own_group_runs_the_command_and_dies_with_its_parent(
    tmp_path: Path, mode: process_tie.TieMode
) -> None:
    """Both POSIX ties, tried on this OS (the watchdog is what macOS gets)."""
    if mode is process_tie.TieMode.PDEATHSIG and not sys.platform.startswith("linux"):
        pytest.skip(reason="PR_SET_PDEATHSIG is a Linux OS feature (other platforms use the watcher)")
    parent, child_pid = _spawn_tied(mode, tmp_path)
    try:
        # exec kept the pid: the tracked pid is the command itself, in its own group.
        deadline = time.monotonic() + 10
        while psutil.Process(child_pid).cmdline()[:1] != ["sleep"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert psutil.Process(child_pid).cmdline() == ["sleep", "300"]
        assert os.getpgid(child_pid) == child_pid
    finally:
        gone = _kill_parent_then_gone(parent, child_pid)
    assert gone


#: A child that notes each SIGTERM in a file and carries on (a CLI flushing, or one that hangs).
TERM_IGNORER = ("import signal, sys, time\n"
                "signal.signal(signal.SIGTERM, lambda *_: open(sys.argv[1], 'a').write('TERM\\n'))\n"
                "print('ready', flush=True)\n"
                "time.sleep(300)\n")


@pytest.mark.parametrize("mode", [process_tie.TieMode.PDEATHSIG, process_tie.TieMode.WATCHDOG])
def test_a_tied_child_gets_sigterm_first_then_sigkill_when_it_stays(
    tmp_path: Path, mode: process_tie.TieMode
) -> None:
    """SIGTERM first (the Claude Code CLI writes its session transcript then, which the next
    run's --resume reads), once; SIGKILL when the child is still there after the grace."""
    if mode is process_tie.TieMode.PDEATHSIG and not sys.platform.startswith("linux"):
        pytest.skip(reason="PR_SET_PDEATHSIG is a Linux OS feature (other platforms use the watcher)")
    notes = tmp_path / "signals.txt"
    parent, child_pid = _spawn_tied(mode, tmp_path, (sys.executable, "-c", TERM_IGNORER, str(notes)))
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline().strip() == "ready"  # its handler is installed
    finally:
        gone = _kill_parent_then_gone(parent, child_pid)
    assert gone
    assert notes.read_text() == "TERM\n"


def test_kill_tree_ends_the_childs_group(tmp_path: Path) -> None:
    script = tmp_path / "spawn.sh"
    script.write_text("sleep 300 &\necho $!\nwait\n")
    proc = subprocess.Popen(process_tie.tied_command(["sh", str(script)]), stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    grandchild = int(proc.stdout.readline())
    process_tie.kill_tree(proc.pid, signal.SIGTERM)
    proc.wait()
    gone = _gone_within(grandchild, 5.0)
    if not gone:
        os.kill(grandchild, signal.SIGKILL)
    assert gone
