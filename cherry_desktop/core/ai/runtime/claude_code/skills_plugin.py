"""The agent's enabled skills as Claude Code takes them: a Cherry-owned local plugin
(``--plugin-dir``) whose ``skills/`` holds exactly those skills, so the CLI offers them as
``cherry-skills:<name>``. The plugin lives under the agent's data folder, one folder per set of
skills (named by its digest, made once and atomically), linking to the store's copies.

The workspace's own ``.claude/skills`` may still be listed by the CLI (the workspace's project
settings are read); the one approval policy refuses every skill that is not one of these.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from pathlib import Path

PLUGIN_NAME = "cherry-skills"
PLUGINS_DIR = ".claude-skills-plugins"


def plugin_skill_names(skills: tuple[Path, ...]) -> list[str]:
    """The names the CLI gives these skills (what its Skill tool's input says)."""
    return [f"{PLUGIN_NAME}:{path.name}" for path in skills]


def ensure_skills_plugin(skills: tuple[Path, ...], agent_data_dir: Path) -> Path:
    """The plugin folder for `skills` (made if missing)."""
    digest = hashlib.sha256(json.dumps([str(p) for p in skills]).encode()).hexdigest()[:16]
    root = agent_data_dir / PLUGINS_DIR
    target = root / digest
    if (target / ".claude-plugin" / "plugin.json").is_file():
        return target
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".new-", dir=root))
    (staging / ".claude-plugin").mkdir()
    (staging / ".claude-plugin" / "plugin.json").write_text(json.dumps(
        {"name": PLUGIN_NAME, "version": "1.0.0", "description": "The skills Cherry enabled for this agent."}))
    (staging / "skills").mkdir()
    for skill in skills:
        link = staging / "skills" / skill.name
        try:
            link.symlink_to(skill, target_is_directory=True)
        except OSError:  # no symlinks (Windows without the right): a copy
            shutil.copytree(skill, link)
    try:
        staging.rename(target)
    except OSError:  # another connection made it first
        shutil.rmtree(staging, ignore_errors=True)
    return target
