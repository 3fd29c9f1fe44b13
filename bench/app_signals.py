"""SIGTERM, SIGHUP and SIGINT mid-turn: how fast the real app stops in order, and what it saved.

The real app (`python -m cherry_desktop --demo`, offscreen, on a temp data dir) streams a demo
turn through the real Claude Code CLI; once partial text is on the row, a signal is sent and
the time to the process's exit measured. Two paces: the demo streaming (a piece every 0.3 s)
and the model stalled (a piece every 8 s: the signal lands while the model API is silent).

Prints one line per run, then one JSON line:
  exit_s_max          the slowest signal-to-exit (target < 3)
  all_paused          every interrupted turn saved `paused` with partial text and resume token
  exit_codes          distinct exit codes seen (target [0])
  clis_alive_after    CLI processes alive after the app exited (target 0)
"""

from __future__ import annotations

import json
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.gui.test_stop_signals import gone, row_text, start_app, wait_until_streaming


def main() -> None:
    runs = []
    for pace, delay in (("streaming", 0.3), ("stalled", 8.0)):
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            with tempfile.TemporaryDirectory(prefix="cherry-signals-") as tmp:
                app = start_app(Path(tmp), delay_s=delay)
                pids = wait_until_streaming(app)
                sent = time.monotonic()
                app.proc.send_signal(sig)
                app.proc.communicate(timeout=60)
                exit_s = time.monotonic() - sent
                rows = app.rows()
                assistant = rows[1] if len(rows) > 1 else None
                paused = bool(assistant and assistant[1] == "paused" and row_text(assistant[2]) and assistant[3])
                run = {"pace": pace, "signal": sig.name, "exit_s": round(exit_s, 3),
                       "exit_code": app.proc.returncode, "paused": paused, "clis_alive": 0 if gone(pids) else 1}
                runs.append(run)
                print(f"{pace:9s} {sig.name:7s} exit in {exit_s:.2f} s, code {app.proc.returncode}, "
                      f"saved paused: {paused}, CLI alive after: {run['clis_alive']}")
    print(json.dumps({"exit_s_max": max(r["exit_s"] for r in runs), "all_paused": all(r["paused"] for r in runs),
                      "exit_codes": sorted({r["exit_code"] for r in runs}),
                      "clis_alive_after": sum(r["clis_alive"] for r in runs)}))


if __name__ == "__main__":
    main()
