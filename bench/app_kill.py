"""SIGKILL of the app mid-turn: what outlives it, what is lost.

The app's real core runs in a child process (`tests.integration.headless_app`) and streams a
turn from the real Claude Code CLI against a scripted model server that this script runs (so
the server outlives the app). Once text has streamed for `--stream-for` seconds the app is
SIGKILLed; 2 s later the CLI's pid is checked and the database read. Two cases: the model
still streaming, and the model API stalled after some text (the CLI would wait for it).
`--reps N` repeats each case.

Prints figures, then one JSON line:
  runtime_children_alive_after_2s  CLIs still alive 2 s after the kill, summed (target 0)
  cli_exit_s_max                    the longest time from the kill until the CLI was gone (it gets
                                    SIGTERM to write its transcript, SIGKILL 0.5 s later at most)
  output_lost_s_max                 the longest stretch of received text not on the row (<= 1)
  user_rows_kept_pct                user rows found after the kill (target 100)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cherry_desktop.demo import HangReply, ScriptedModelServer, slow_text
from tests.integration.headless_app import KillOutcome, kill_mid_turn


async def run(reps: int, stream_for_s: float) -> dict[str, object]:
    outcomes: dict[str, list[KillOutcome]] = {"streaming": [], "stalled": []}
    for case in outcomes:
        for _ in range(reps):
            server = ScriptedModelServer(default=HangReply(text_before="Once upon a time " * 20)
                                         if case == "stalled" else slow_text("Once upon a time " * 400,
                                                                             delay_s=0.02))
            await server.start()
            try:
                with tempfile.TemporaryDirectory(prefix="cherry-kill-") as tmp:
                    outcome = await kill_mid_turn(Path(tmp) / "data", server.base_url, stream_for_s=stream_for_s)
            finally:
                await server.stop()
            outcomes[case].append(outcome)
            print(f"{case:9s} alive_after_2s={outcome.cli_alive_after_2s!s:5s} exit_s={outcome.cli_exit_s:.2f} "
                  f"streamed={outcome.streamed_chars:5d} "
                  f"saved={outcome.saved_chars:5d} lost_s={outcome.output_lost_s:.2f} "
                  f"user_row_kept={outcome.user_rows_kept}")
    every = [o for runs in outcomes.values() for o in runs]
    return {
        "runtime_children_alive_after_2s": sum(o.cli_alive_after_2s for o in every),
        "cli_exit_s_max": round(max(o.cli_exit_s for o in every), 3),
        "output_lost_s_max": round(max(o.output_lost_s for o in every), 3),
        "user_rows_kept_pct": round(100.0 * sum(o.user_rows_kept for o in every) / len(every), 1),
        "kills": len(every),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=3, help="kills per case (streaming, stalled)")
    parser.add_argument("--stream-for", type=float, default=1.5, help="seconds of streamed text before the kill")
    args = parser.parse_args()
    result = asyncio.run(run(args.reps, args.stream_for))
    print(f"runtime children alive after 2 s: {result['runtime_children_alive_after_2s']}")
    print(f"CLI gone after the kill (max): {result['cli_exit_s_max']} s")
    print(f"output lost (max): {result['output_lost_s_max']} s")
    print(f"user rows kept: {result['user_rows_kept_pct']} %")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
