"""Settings > Skills in the real dialog: import a skill folder and a zip (listed with their
descriptions), an unsafe zip refused with its reason and nothing written, remove; the agent
dialog enables a skill for the agent (saved in its config). Screenshot: artifacts/skills_settings.png."""

from __future__ import annotations

import asyncio
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.demo.bootstrap import ensure_demo_records
from cherry_desktop.ui.dialogs import AgentDialog, SettingsDialog
from tests.gui.conftest import ARTIFACTS

pytestmark = [pytest.mark.gui, pytest.mark.timeout(60)]


def skill_folder(root: Path, name: str, description: str) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\nDo it well.\n")
    return folder


async def test_import_list_remove_and_enable_for_an_agent(controller: Any, ui_core: Any, tmp_path: Path) -> None:
    settings = SettingsDialog(controller.bridges)
    panel = settings.skills
    settings.tabs.setCurrentWidget(panel)
    assert panel.import_path(skill_folder(tmp_path / "src", "release-notes", "Write release notes."))
    archive = tmp_path / "review.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("code-review/SKILL.md", "---\nname: code-review\ndescription: Review a diff.\n---\nLook.\n")
    assert panel.import_path(archive)
    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as zf:
        zf.writestr("../escape/SKILL.md", "---\nname: escape\n---\n")
    assert not panel.import_path(evil)
    assert "outside its folder" in panel.error_label.text()
    assert not (tmp_path / "escape").exists()
    assert not panel.import_path(tmp_path / "src")  # no SKILL.md at its top
    texts = [panel.skill_list.item(i).text() for i in range(panel.skill_list.count())]
    assert texts == ["code-review — Review a diff.", "release-notes — Write release notes."]
    settings.resize(760, 420)
    settings.show()
    await asyncio.sleep(0.2)
    ARTIFACTS.mkdir(exist_ok=True)
    assert settings.grab().save(str(ARTIFACTS / "skills_settings.png"))
    panel.skill_list.setCurrentRow(0)
    panel.remove_selected()
    assert [s.name for s in ui_core.skills.list()] == ["release-notes"]
    settings.close()

    agent_id, _session, _ws = ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"),
                                                  "http://127.0.0.1:9")
    dialog = AgentDialog(controller.bridges, agent_id)
    assert not dialog.skill_list.isHidden()
    dialog.skill_list.item(0).setCheckState(Qt.CheckState.Checked)
    dialog.save()
    assert ui_core.repos.agents.get_agent(agent_id).config["skills"] == ["release-notes"]
