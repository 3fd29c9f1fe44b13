"""`python3 packaging/smoke_bundle.py TARBALL`: prove a built bundle runs on its own.

Unpacks the tarball into a temp dir and runs, from the bundle alone (a bare environment: no
virtualenv, PATH=/usr/bin:/bin, a throwaway HOME and data dir, Qt offscreen), `--version`,
`doctor` and `--demo --screenshot`, then checks the database holds a completed demo turn (the
user's message and a successful assistant reply with text, nothing left pending). Standard
library only, so any `python3` runs it. Prints each step's time, the bundle's size and one
JSON line; exits non-zero on the first failure.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

DEMO_TIMEOUT_S = 180


class SmokeError(RuntimeError):
    pass


def dir_size_mb(path: Path) -> float:
    return round(sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink()) / 2**20, 1)


def bare_env(home: Path) -> dict[str, str]:
    """No virtualenv, no Python variables, no user config: only what a desktop session has."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "QT_QPA_PLATFORM": "offscreen"}
    for name in ("TMPDIR",):
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise SmokeError(f"{' '.join(cmd[1:]) or cmd[0]} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def check_demo_turn(database: Path) -> dict[str, Any]:
    """The demo session holds the user's message, then a successful assistant reply with text."""
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT role, status, data FROM agent_session_message"
                          " ORDER BY session_id, ordering").fetchall()
    finally:
        db.close()
    roles = [(role, status) for role, status, _ in rows]
    pending = [r for r in roles if r[1] not in ("success",)]
    replies = [json.loads(data) for role, status, data in rows if role == "assistant" and status == "success"]
    texts = [p.get("text", "") for parts in replies for p in parts if p.get("type") == "text"]
    if not any(role == "user" for role, _ in roles) or not any(t.strip() for t in texts) or pending:
        raise SmokeError(f"no completed demo turn in {database}: rows {roles}")
    return {"messages": len(rows), "reply_chars": sum(len(t) for t in texts)}


def smoke(tarball: Path) -> dict[str, Any]:
    result: dict[str, Any] = {"tarball": tarball.name, "tarball_mb": round(tarball.stat().st_size / 2**20, 1)}
    steps: dict[str, float] = {}

    def timed(name: str, fn: Any) -> Any:
        t0 = time.perf_counter()
        out = fn()
        steps[name] = round(time.perf_counter() - t0, 2)
        print(f"  {name}: {steps[name]} s", flush=True)
        return out

    with tempfile.TemporaryDirectory(prefix="cherry-bundle-smoke-") as tmp:
        tmp_path = Path(tmp)
        home, data = tmp_path / "home", tmp_path / "data"
        home.mkdir()
        with tarfile.open(tarball) as tar:
            timed("unpack", lambda: tar.extractall(tmp_path, filter="tar"))
        [top] = [p for p in tmp_path.iterdir() if p.name.startswith("cherry-desktop-")]
        exe = top / "cherry-desktop"
        result["unpacked_mb"] = dir_size_mb(top)
        env = bare_env(home)
        version = timed("version", lambda: run([str(exe), "--version"], env, tmp_path, 60)).stdout.strip()
        if not version.startswith("cherry-desktop ") or version.split()[-1] not in top.name:
            raise SmokeError(f"--version printed {version!r} in {top.name}")
        doctor = timed("doctor", lambda: run([str(exe), "doctor", "--data-dir", str(data)], env, tmp_path, 120))
        if "status: ok" not in doctor.stdout or "claude code cli: not found" in doctor.stdout:
            raise SmokeError(f"doctor:\n{doctor.stdout}")
        png = tmp_path / "demo.png"
        timed("demo_turn", lambda: run([str(exe), "--demo", "--screenshot", str(png), "--data-dir", str(data)],
                                       env, tmp_path, DEMO_TIMEOUT_S))
        if not png.is_file() or png.stat().st_size == 0:
            raise SmokeError(f"--demo --screenshot saved no {png}")
        log = (data / "logs" / "cherry-desktop.log").read_text(errors="replace")
        if "(idle: True)" not in log:
            raise SmokeError(f"the demo turn did not finish before the screenshot:\n{log[-3000:]}")
        result.update(timed("check_database", lambda: check_demo_turn(data / "cherry.db")))
        result["version"] = version
    result["steps_s"] = steps
    return result


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    tarball = Path(argv[0]).resolve()
    print(f"bundle smoke: {tarball}", flush=True)
    try:
        result = smoke(tarball)
    except (SmokeError, subprocess.TimeoutExpired) as exc:
        print(f"bundle smoke FAILED: {exc}", file=sys.stderr)
        return 1
    print(f"  bundle: {result['tarball_mb']} MB packed, {result['unpacked_mb']} MB unpacked; "
          f"demo turn: {result['messages']} messages, reply {result['reply_chars']} chars")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
