"""Scale: the app on a large data dir (2 000 topics, 200 agent sessions, up to 1 M messages).

For each size in `--sizes` (messages in all; default 10 000, 100 000 and 1 000 000) the parent
seeds a data dir (SQL through the app's own schema, search triggers included; not timed), then
a child process runs the real app's core and windows on it and measures:

  sidebar_build_ms     the sidebar listing every agent, session and chat topic (median of 3)
  search_p95_ms        a search (messages and titles) over words of several frequencies
  open_big_session_ms  showing the biggest session (50 000 messages at 1 M) in a window
                       (bar <= 300)
  scroll_frame_p99_ms  scrolling that session up towards its top, one step per frame
                       (older pages load on the way), each frame painted
  floor_scroll_frame_p99_ms  the same steps over a bare `QTextBrowser` holding the same rows'
                       text, in the same process right after (its floor)
  scroll_frame_ratio   the two over each other (bar <= 2)
  rss_10_windows_mb    the app's resident memory with 10 windows open on 10 different sessions
                       (the big one among them, its newest page shown; bar <= 200; no CLIs run)

Prints one table (a column per size: how each figure grows), then one JSON line.
Usage: python bench/scale.py [--sizes 10000,100000,1000000] [--scroll-frames 300] [--quick]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

N_TOPICS = 2000
N_AGENTS = 20
N_SESSIONS = 200
BIG_SESSION = 50_000
BIG_SESSION_ID = "s-big"
SCROLL_STEP_PX = 120
WORDS = ("the", "parser", "reads", "each", "line", "and", "splits", "it", "on", "first", "python", "sqlite",
         "window", "stream", "agent", "refactor", "kyoto", "artichoke", "gradient", "deploy", "table", "code")
QUERIES = ("the", "parser", "kyoto", "artichoke deploy", "line splits", "zzqxv", "grad", "sqlite window")


def _text(rng: random.Random, i: int) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 40)))
    return f"Message {i}: {words}." if i % 7 else f"Message {i}: **{words}**\n\n- one\n- two\n\n`code` here."


def _data(text: str) -> str:
    return json.dumps([{"type": "text", "text": text}], ensure_ascii=False, separators=(",", ":"))


def seed(data_root: Path, total: int) -> dict[str, Any]:
    """A data dir with `N_TOPICS` chat topics, `N_SESSIONS` agent sessions and `total` messages:
    the biggest session holds min(50 000, total / 4), the rest is spread over the others."""
    from cherry_desktop.core.data import open_database
    from cherry_desktop.core.storage.paths import build_path_registry

    paths = build_path_registry(str(data_root))
    paths.ensure_all()
    db = open_database(paths.database_file)
    rng = random.Random(29)
    big = min(BIG_SESSION, total // 4)
    rest = total - big
    chat_total, session_total = rest // 2, rest - rest // 2
    t0 = time.perf_counter()
    with db.atomic():
        db.cursor().executemany(
            "INSERT INTO agent (id, type, name, description, instructions, permission_mode, disabled_tools, config, "
            "created_at, updated_at) VALUES (?, 'claude-code', ?, '', '', 'default', '[]', '{}', 0, 0)",
            [(f"a{i}", f"Agent {i}") for i in range(N_AGENTS)])
        session_ids = [BIG_SESSION_ID, *(f"s{i}" for i in range(1, N_SESSIONS))]
        db.cursor().executemany(
            "INSERT INTO agent_session (id, agent_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
            [(sid, f"a{i % N_AGENTS}", f"Session {i}", i, N_SESSIONS - i) for i, sid in enumerate(session_ids)])
        per_topic = max(1, chat_total // N_TOPICS)
        topic_rows, chat_rows = [], []
        n = 0
        for t in range(N_TOPICS):
            parent = None
            for k in range(per_topic):
                mid = f"m{n}"
                chat_rows.append((mid, f"t{t}", parent, "user" if k % 2 == 0 else "assistant", _data(_text(rng, n)), n))
                parent, n = mid, n + 1
            topic_rows.append((f"t{t}", f"Topic {t} {rng.choice(WORDS)}", parent, t, N_TOPICS - t))
        db.cursor().executemany(
            "INSERT INTO topic (id, name, active_node_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)", topic_rows)
        db.cursor().executemany(
            "INSERT INTO message (id, topic_id, parent_id, role, data, status, created_at, updated_at, ordering) "
            "VALUES (?, ?, ?, ?, ?, 'success', 0, 0, ?)", chat_rows)
        del chat_rows

        def session_rows() -> Any:
            counts = {BIG_SESSION_ID: big}
            others = session_ids[1:]
            for i, sid in enumerate(others):
                counts[sid] = session_total // len(others) + (1 if i < session_total % len(others) else 0)
            k = 0
            for sid, count in counts.items():
                for j in range(count):
                    yield (f"sm{k}", sid, "user" if j % 2 == 0 else "assistant", _data(_text(rng, k)), j)
                    k += 1

        db.cursor().executemany(
            "INSERT INTO agent_session_message (id, session_id, role, data, status, created_at, updated_at, ordering) "
            "VALUES (?, ?, ?, ?, 'success', 0, 0, ?)", session_rows())
    seconds = time.perf_counter() - t0
    db.close()
    return {"seed_s": round(seconds, 1), "big_session_messages": big,
            "db_mb": round(paths.database_file.stat().st_size / 2**20, 1)}


# -- the child: the real app on the seeded data dir ---------------------------------------------------

def child(data_root: str, scroll_frames: int) -> None:
    from _harness import run_qasync

    print("RESULT " + json.dumps(run_qasync(lambda: measure(data_root, scroll_frames))), flush=True)


async def measure(data_root: str, scroll_frames: int) -> dict[str, Any]:
    import asyncio

    import psutil

    from cherry_desktop.core.app.bootstrap import start_core
    from cherry_desktop.core.state.topics import session_topic_id
    from cherry_desktop.core.storage.paths import build_path_registry
    from cherry_desktop.ui import UiController

    core = await start_core(build_path_registry(data_root))
    controller = UiController(core)
    result: dict[str, Any] = {}
    try:
        window = controller.open_window(None)
        await asyncio.sleep(0.3)
        builds = []
        for _ in range(3):
            t0 = time.perf_counter()
            window.sidebar.reload()
            builds.append((time.perf_counter() - t0) * 1000)
        result["sidebar_build_ms"] = statistics.median(builds)
        result["sidebar_items"] = len(core.repos.topics.list_topics()) + len(core.repos.sessions.list_sessions())

        searches = []
        for _ in range(5):
            for query in QUERIES:
                t0 = time.perf_counter()
                core.repos.search.search_messages(query)
                core.repos.search.matching_titles(query)
                searches.append((time.perf_counter() - t0) * 1000)
        result["search_p95_ms"] = statistics.quantiles(searches, n=20)[-1]

        t0 = time.perf_counter()
        task = window.show_topic(session_topic_id(BIG_SESSION_ID))
        if task is not None:
            await task
        await asyncio.sleep(0)  # the events it posted (layout, polish)
        window.repaint()
        result["open_big_session_ms"] = (time.perf_counter() - t0) * 1000
        await asyncio.sleep(0.2)

        # 10 windows, each on its own session (the big one just opened), before any scrolling.
        sessions = [s.id for s in core.repos.sessions.list_sessions() if s.id != BIG_SESSION_ID][:9]
        others = [controller.open_window(session_topic_id(session_id)) for session_id in sessions]
        await asyncio.sleep(1.0)
        result["windows_open"] = len(controller.windows)
        result["rss_10_windows_mb"] = psutil.Process().memory_info().rss / 2**20
        for other in others:
            other.close()
        await asyncio.sleep(0.3)

        view = window.message_view
        frames = await scroll_up(view, scroll_frames)
        result["scroll_frame_p99_ms"] = p99(frames)
        result["rows_loaded_by_scroll"] = len(view.rows())
        texts = [row.text() for row in view.rows()]
        result["floor_scroll_frame_p99_ms"] = p99(await floor_scroll(texts, len(frames), view.size()))
        result["scroll_frame_ratio"] = result["scroll_frame_p99_ms"] / max(result["floor_scroll_frame_p99_ms"], 1e-3)

    finally:
        await controller.aclose()
        await core.stop()
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in result.items()}


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else 0.0


async def frame(view: Any, value: int) -> float:
    """One frame: scroll to `value`, one loop turn (what it caused: older rows coming in,
    layout), then the paint; its ms."""
    import asyncio

    t0 = time.perf_counter()
    view.verticalScrollBar().setValue(value)
    await asyncio.sleep(0)
    view.viewport().repaint()
    return (time.perf_counter() - t0) * 1000


async def scroll_up(view: Any, frames: int) -> list[float]:
    """Up `SCROLL_STEP_PX` per frame (near the top, older rows come in)."""
    bar = view.verticalScrollBar()
    return [await frame(view, max(0, bar.value() - SCROLL_STEP_PX)) for _ in range(frames)]


async def floor_scroll(texts: list[str], frames: int, size: Any) -> list[float]:
    """The floor: a bare `QTextBrowser` with the same rows' text, scrolled up in the same steps
    (from its bottom again when at the top)."""
    import asyncio

    from PySide6.QtWidgets import QTextBrowser

    browser = QTextBrowser()
    browser.resize(size)
    browser.setPlainText("\n\n".join(texts))
    browser.show()
    await asyncio.sleep(0.2)
    bar = browser.verticalScrollBar()
    bar.setValue(bar.maximum())
    out = [await frame(browser, bar.value() - SCROLL_STEP_PX if bar.value() > 0 else bar.maximum())
           for _ in range(frames)]
    browser.close()
    return out


# -- the parent: seed, measure, tabulate ---------------------------------------------------------------

BARS = {"open_big_session_ms": 300.0, "scroll_frame_ratio": 2.0, "rss_10_windows_mb": 200.0}


def run_size(total: int, scroll_frames: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="cherry-scale-") as root:
        seeded = seed(Path(root), total)
        proc = subprocess.run([sys.executable, __file__, "--child", root, str(scroll_frames)],
                              capture_output=True, text=True, timeout=1800, check=False)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return {"messages": total, **seeded, **json.loads(line[len("RESULT "):])}
    raise RuntimeError(f"the scale child failed at {total} messages: {proc.stderr[-3000:]}")


def print_table(rows: list[dict[str, Any]]) -> None:
    keys = [k for k in rows[0] if k != "messages"]
    print(f"{'messages':>28} " + " ".join(f"{r['messages']:>12,}" for r in rows))
    for key in keys:
        bar = f"  (bar {BARS[key]:g})" if key in BARS else ""
        print(f"{key:>28} " + " ".join(f"{r.get(key, ''):>12}" for r in rows) + bar)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--scroll-frames", type=int, default=300)
    parser.add_argument("--quick", action="store_true", help="CI: 10 000 messages, 100 scroll frames")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.scroll_frames = "10000", 100
    rows = [run_size(int(size), args.scroll_frames) for size in args.sizes.split(",")]
    print_table(rows)
    print(json.dumps({"sizes": rows, **{k: rows[-1].get(k) for k in BARS}}))


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]))
    else:
        main()
