"""Per-turn checkpoints on a 10 000-file workspace (issue 28): the blocking part of a turn-start
checkpoint (what a turn waits for before the runtime gets it), the Changes view of a turn
(its file list and one diff) and a rewind (plan + restore). The floor is one `git --version`
spawn measured in the same run: on a loaded machine every figure moves with it.

Target: checkpoint_ms_p95 <= 100. Prints figures and a JSON line.

    python bench/checkpoints.py [--files 10000] [--turns 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def make_workspace(root: Path, files: int) -> None:
    per_dir = 100
    for i in range(files):
        folder = root / f"pkg{i // per_dir:03d}"
        folder.mkdir(exist_ok=True)
        (folder / f"mod{i % per_dir:03d}.py").write_text(f"# module {i}\n" + "x = 1\n" * 30)
    (root / ".gitignore").write_text("build/\n")


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


async def run(files: int, turns: int) -> dict[str, float]:
    from cherry_desktop.core.checkpoints import SessionCheckpoints

    root = Path(tempfile.mkdtemp(prefix="cherry-bench-ckpt-"))
    ws = root / "ws"
    ws.mkdir()
    make_workspace(ws, files)
    store = SessionCheckpoints(root / "store", "bench", ws.resolve())
    t0 = time.perf_counter()
    await store.turn_started("baseline")             # the first capture hashes every file
    await store.turn_ended("baseline", [])
    baseline_s = time.perf_counter() - t0

    floor, blocking = [], []
    for n in range(turns):
        t = time.perf_counter()
        proc = await asyncio.create_subprocess_exec("git", "--version", stdout=asyncio.subprocess.DEVNULL)
        await proc.wait()
        floor.append((time.perf_counter() - t) * 1000)
        (ws / f"pkg{n % 100:03d}" / "mod000.py").write_text(f"# edited by the user {n}\n")
        t = time.perf_counter()
        await store.turn_started(f"u{n}", f"a{n}")
        blocking.append((time.perf_counter() - t) * 1000)
        for k in range(3):   # the "agent" edits three files
            (ws / f"pkg{(n + k) % 100:03d}" / "mod001.py").write_text(f"# agent {n} {k}\n")
        (ws / f"new{n}.py").write_text("print('new')\n")
        await store.turn_ended(f"u{n}", [f"a{n}"])

    t = time.perf_counter()
    changes = await store.changes(f"a{turns - 1}")
    await store.file_diff(f"a{turns - 1}", changes.files[0].path)
    changes_ms = (time.perf_counter() - t) * 1000

    t = time.perf_counter()
    plan = await store.plan_rewind("u0")
    await store.rewind(plan)
    rewind_ms = (time.perf_counter() - t) * 1000
    return {"files": files, "turns": turns, "baseline_s": round(baseline_s, 2),
            "checkpoint_ms_p50": round(statistics.median(blocking), 1), "checkpoint_ms_p95": round(p95(blocking), 1),
            "floor_git_spawn_ms_p50": round(statistics.median(floor), 1),
            "changes_view_ms": round(changes_ms, 1), "rewind_ms": round(rewind_ms, 1),
            "rewind_files": len(plan.files)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=30)
    args = parser.parse_args()
    figures = asyncio.run(run(args.files, args.turns))
    for key, value in figures.items():
        print(f"{key:>24}: {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
