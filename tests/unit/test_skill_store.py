"""`SkillStore`: folder and zip import (front matter names, unsafe zips refused with nothing
written, links out of the skill not followed), and the paths a runtime gets."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from cherry_desktop.core.ai.runtime.claude_code.skills_plugin import ensure_skills_plugin, plugin_skill_names
from cherry_desktop.core.skills import SkillError, SkillStore


def test_import_list_paths_and_refusals(tmp_path: Path) -> None:
    store = SkillStore(tmp_path / "Skills")
    src = tmp_path / "src"
    src.mkdir()
    (src / "SKILL.md").write_text("---\nname: notes\ndescription: Take notes.\n---\nbody\n")
    (tmp_path / "secret").write_text("s")
    (src / "leak").symlink_to(tmp_path / "secret")
    skill = store.import_folder(src)
    assert (skill.name, skill.description) == ("notes", "Take notes.")
    assert not (skill.path / "leak").exists()  # a link out of the skill is not copied
    with pytest.raises(SkillError) as taken:
        store.import_folder(src)
    assert taken.value.code == "name-taken"
    for name, members in {"slip.zip": {"../x/SKILL.md": "---\n---\n"},
                          "abs.zip": {"/abs/SKILL.md": "---\n---\n"}}.items():
        with zipfile.ZipFile(tmp_path / name, "w") as zf:
            for member, body in members.items():
                zf.writestr(member, body)
        with pytest.raises(SkillError) as unsafe:
            store.import_zip(tmp_path / name)
        assert unsafe.value.code == "zip-unsafe"
    (tmp_path / "bad.zip").write_text("not a zip")
    with pytest.raises(SkillError):
        store.import_zip(tmp_path / "bad.zip")
    assert [s.name for s in store.list()] == ["notes"]
    assert store.paths_for(["notes", "missing", "../etc"]) == (skill.path,)


def test_the_plugin_holds_exactly_the_enabled_skills(tmp_path: Path) -> None:
    store = SkillStore(tmp_path / "Skills")
    for name in ("a", "b"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "SKILL.md").write_text(f"---\nname: {name}\n---\n")
        store.import_folder(folder)
    paths = store.paths_for(["b"])
    plugin = ensure_skills_plugin(paths, tmp_path / "agent-data")
    assert sorted(p.name for p in (plugin / "skills").iterdir()) == ["b"]
    assert ensure_skills_plugin(paths, tmp_path / "agent-data") == plugin
    assert plugin_skill_names(paths) == ["cherry-skills:b"]
