"""`SkillStore`: the skills Cherry manages, ``Skills/<name>/SKILL.md`` under the data folder.

A skill is imported from a folder or a zip (copied in: the store owns its copy), listed with
the name and description of its SKILL.md front matter, and removed. Each agent enables some by
name (its config's ``skills``); a runtime gets exactly those (`paths_for`), never a skill from
the user's or the workspace's own skill folders. A zip is checked before anything is written:
no absolute paths, no ``..``, no links, bounded in size and count.
"""

from __future__ import annotations

import re
import shutil
import stat
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

SKILL_FILE = "SKILL.md"
MAX_ZIP_BYTES = 50_000_000
MAX_ZIP_FILES = 2_000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class SkillError(ValueError):
    """A skill cannot be imported; `code` is stable, the UI words it."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    path: Path


def front_matter(text: str) -> dict[str, str]:
    """The ``key: value`` lines of a SKILL.md's leading ``---`` block."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return {}
    out: dict[str, str] = {}
    for line in lines[1:]:
        if line.strip() == "---":
            break
        key, sep, value = line.partition(":")
        if sep:
            out[key.strip()] = value.strip().strip("\"'")
    return out


class SkillStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def list(self) -> list[Skill]:
        if not self.root.is_dir():
            return []
        skills = []
        for folder in sorted(self.root.iterdir()):
            skill = self._read(folder)
            if skill is not None:
                skills.append(skill)
        return skills

    def find(self, name: str) -> Skill | None:
        return self._read(self.root / name) if _NAME.match(name) else None

    def _read(self, folder: Path) -> Skill | None:
        file = folder / SKILL_FILE
        if folder.name.startswith(".") or not file.is_file():
            return None
        meta = front_matter(file.read_text(encoding="utf-8", errors="replace")[:20_000])
        return Skill(folder.name, meta.get("description", ""), folder)

    def paths_for(self, names: Iterable[str]) -> tuple[Path, ...]:
        """The folders of the named skills that exist (an unknown name is skipped)."""
        return tuple(skill.path for name in dict.fromkeys(names) if (skill := self.find(name)) is not None)

    def import_folder(self, source: Path) -> Skill:
        """Copy a skill folder (with a SKILL.md) in, named by its front matter or its folder."""
        if not (source / SKILL_FILE).is_file():
            raise SkillError("skill-file-missing", str(source))
        meta = front_matter((source / SKILL_FILE).read_text(encoding="utf-8", errors="replace"))
        name = meta.get("name") or source.name
        if not _NAME.match(name):
            raise SkillError("name-invalid", name)
        target = self.root / name
        if target.exists():
            raise SkillError("name-taken", name)
        self.root.mkdir(parents=True, exist_ok=True)
        # Links are copied as what they point at only when inside the skill: never followed out.
        shutil.copytree(source, target, symlinks=True, ignore=_outside_links(source))
        skill = self._read(target)
        assert skill is not None
        return skill

    def import_zip(self, archive: Path) -> Skill:
        """Unpack a zip whose SKILL.md is at its top or in its one top folder."""
        try:
            with zipfile.ZipFile(archive) as zf:
                members = zf.infolist()
                _check_members(members)
                with tempfile.TemporaryDirectory() as tmp:
                    zf.extractall(tmp)
                    top = Path(tmp)
                    if not (top / SKILL_FILE).is_file():
                        folders = [p for p in top.iterdir() if p.is_dir()]
                        if len(folders) != 1:
                            raise SkillError("skill-file-missing", archive.name)
                        top = folders[0]
                    return self.import_folder(top)
        except zipfile.BadZipFile as exc:
            raise SkillError("zip-invalid", str(exc)) from None

    def delete(self, name: str) -> None:
        skill = self.find(name)
        if skill is not None:
            shutil.rmtree(skill.path)


def _check_members(members: list[zipfile.ZipInfo]) -> None:
    if len(members) > MAX_ZIP_FILES:
        raise SkillError("zip-too-large", f"{len(members)} files")
    if sum(m.file_size for m in members) > MAX_ZIP_BYTES:
        raise SkillError("zip-too-large", "over 50 MB unpacked")
    for member in members:
        name = member.filename
        if name.startswith(("/", "\\")) or ".." in Path(name).parts or ":" in name:
            raise SkillError("zip-unsafe", name)
        if stat.S_ISLNK(member.external_attr >> 16):
            raise SkillError("zip-unsafe", name)


def _outside_links(source: Path) -> Callable[[str, list[str]], list[str]]:
    root = source.resolve()

    def ignore(folder: str, names: list[str]) -> list[str]:
        out = []
        for name in names:
            path = Path(folder) / name
            if path.is_symlink() and not path.resolve().is_relative_to(root):
                out.append(name)
        return out

    return ignore
