"""Search over 100 000 messages: index build (migration 6 back-filling a version-5 file) and
query latency (p50/p95 over words of several frequencies, phrases, CJK and short terms).

Targets (issue 15): build <= 10 s, query p95 <= 50 ms. Prints figures and a JSON line.

    python bench/search.py [--messages 100000] [--queries 200]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

WORDS = [
    "the", "of", "and", "to", "in", "is", "it", "that", "for", "on", "with", "as", "was", "at",
    "by", "be", "this", "have", "from", "or", "one", "had", "not", "but", "what", "all", "were",
    "when", "we", "there", "can", "an", "your", "which", "their", "said", "if", "do", "will",
    "each", "about", "how", "up", "out", "them", "then", "she", "many", "some", "so", "these",
    "would", "other", "into", "has", "more", "her", "two", "like", "him", "see", "time", "could",
    "no", "make", "than", "first", "been", "its", "who", "now", "people", "my", "made", "over",
    "did", "down", "only", "way", "find", "use", "may", "water", "long", "little", "very", "after",
    "words", "called", "just", "where", "most", "know", "get", "through", "back", "much", "before",
    "go", "good", "new", "write", "our", "used", "me", "man", "too", "any", "day", "same", "right",
    "look", "think", "also", "around", "another", "came", "come", "work", "three", "word", "must",
    "because", "does", "part", "python", "sqlite", "refactor", "artichoke", "kyoto", "tokenizer",
    "gradient", "lambda", "compile", "deploy",
]
CJK = "如何使用全文搜索功能数据库模型流式输出会话代理工具计划翻译附件图片文件"


def _text(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 60))]
    if rng.random() < 0.1:
        words.append("".join(rng.choice(CJK) for _ in range(rng.randint(4, 12))))
    return " ".join(words)


def build_version5_file(path: Path, n: int) -> float:
    """A version-5 database holding `n` messages (half chat, half session); returns seconds."""
    import peewee as pw

    from cherry_desktop.core.data._json import parts_to_json
    from cherry_desktop.core.data.database import MIGRATIONS
    from cherry_desktop.core.data.models import database_proxy
    from cherry_desktop.core.messages import TextPart

    rng = random.Random(15)
    db = pw.SqliteDatabase(str(path), pragmas={"journal_mode": "wal", "synchronous": "normal"})
    database_proxy.initialize(db)
    t0 = time.perf_counter()
    with db.atomic():
        for migration in MIGRATIONS[:5]:
            migration(db)
        db.execute_sql("PRAGMA user_version = 5")
        topics = [f"t{i}" for i in range(n // 200 + 1)]
        db.execute_sql("INSERT INTO agent (id, type, name, permission_mode, disabled_tools, config, "
                       "created_at, updated_at, description, instructions) "
                       "VALUES ('a', 'claude-code', 'A', 'default', '[]', '{}', 0, 0, '', '')")
        for t in topics:
            db.execute_sql("INSERT INTO topic (id, name, created_at, updated_at) VALUES (?, ?, 0, 0)", (t, t))
            db.execute_sql("INSERT INTO agent_session (id, agent_id, name, created_at, updated_at) "
                           "VALUES (?, 'a', ?, 0, 0)", (t, t))
        chat, session = [], []
        for i in range(n):
            data = parts_to_json([TextPart(text=_text(rng))])
            owner = topics[i % len(topics)]
            row = (f"m{i}", owner, "user" if i % 2 else "assistant", data, i)
            (chat if i % 2 else session).append(row)
        db.cursor().executemany(
            "INSERT INTO message (id, topic_id, role, data, status, created_at, updated_at, ordering) "
            "VALUES (?, ?, ?, ?, 'success', 0, 0, ?)", chat)
        db.cursor().executemany(
            "INSERT INTO agent_session_message (id, session_id, role, data, status, created_at, "
            "updated_at, ordering) VALUES (?, ?, ?, ?, 'success', 0, 0, ?)", session)
    db.close()
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()

    from cherry_desktop.core.data import Repositories, open_database

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cherry.db"
        fill_s = build_version5_file(path, args.messages)
        t0 = time.perf_counter()
        db = open_database(path)  # runs migration 6: tables, triggers, back-fill, rebuild
        build_s = time.perf_counter() - t0
        repos = Repositories()
        indexed = repos.search.indexed_count()
        size_mb = path.stat().st_size / 1e6
        rng = random.Random(7)
        kinds = {
            "common word": lambda: rng.choice(WORDS[:20]),
            "rare word": lambda: rng.choice(WORDS[-10:]),
            "two words": lambda: f"{rng.choice(WORDS[20:])} {rng.choice(WORDS[-10:])}",
            "substring": lambda: rng.choice(WORDS[-10:])[1:5],
            "cjk": lambda: CJK[rng.randrange(len(CJK) - 3):][:3],
            "short (scan)": lambda: rng.choice(["go", "db", "搜索", "me"]),
            "no match": lambda: "zzqxv",
        }
        per_kind: dict[str, list[float]] = {}
        all_ms: list[float] = []
        for name, make in kinds.items():
            samples = []
            for _ in range(max(1, args.queries // len(kinds))):
                q = make()
                t = time.perf_counter()
                repos.search.search_messages(q)
                repos.search.matching_titles(q)
                samples.append((time.perf_counter() - t) * 1000)
            per_kind[name] = samples
            all_ms.extend(samples)
        db.close()

    def p95(xs: list[float]) -> float:
        return statistics.quantiles(xs, n=20)[-1] if len(xs) > 1 else xs[0]

    print(f"{args.messages} messages written (version-5 file) in {fill_s:.2f} s; "
          f"{indexed} indexed; file {size_mb:.1f} MB")
    print(f"index build (migration 6, back-fill + rebuild): {build_s:.2f} s (target <= 10 s)")
    for name, samples in per_kind.items():
        print(f"  {name:14s} p50 {statistics.median(samples):6.2f} ms  p95 {p95(samples):6.2f} ms  "
              f"max {max(samples):6.2f} ms")
    overall = p95(all_ms)
    print(f"query p95 over {len(all_ms)} queries: {overall:.2f} ms (target <= 50 ms)")
    print(json.dumps({"messages": args.messages, "indexed": indexed, "build_s": round(build_s, 3),
                      "query_p50_ms": round(statistics.median(all_ms), 3), "query_p95_ms": round(overall, 3),
                      "query_max_ms": round(max(all_ms), 3), "file_mb": round(size_mb, 1),
                      "ok": build_s <= 10 and overall <= 50}))


if __name__ == "__main__":
    main()
