"""Settings > Skills: the skills Cherry manages (``Skills/<name>/SKILL.md``): import a folder or a
zip, remove one. Each agent enables some in its dialog; no skill from the user's or a
workspace's own skill folders is ever offered to an agent."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.bridge import SkillError, SkillsBridge


class SkillsSettingsPanel(QWidget):
    """The Skills tab."""

    def __init__(self, skills: SkillsBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("skillsSettings")
        self.skills = skills
        layout = QVBoxLayout(self)
        hint = QLabel(self.tr("Skills an agent can use once you enable them in its dialog. A skill is a folder "
                              "with a SKILL.md."), self)
        hint.setWordWrap(True)
        hint.setObjectName("fieldHint")
        layout.addWidget(hint)
        self.skill_list = QListWidget(self)
        self.skill_list.setObjectName("skillList")
        layout.addWidget(self.skill_list, 1)
        buttons = QHBoxLayout()
        folder = QPushButton(self.tr("Import folder…"), self)
        folder.setObjectName("skillImportFolder")
        folder.clicked.connect(self._pick_folder)
        archive = QPushButton(self.tr("Import zip…"), self)
        archive.setObjectName("skillImportZip")
        archive.clicked.connect(self._pick_zip)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setObjectName("skillRemove")
        self.remove_button.clicked.connect(self.remove_selected)
        for button in (folder, archive, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.error_label = QLabel(self)
        self.error_label.setObjectName("dialogError")
        self.error_label.setWordWrap(True)
        layout.addWidget(self.error_label)
        self.reload()

    def reload(self) -> None:
        self.skill_list.clear()
        for skill in self.skills.skills():
            item = QListWidgetItem(f"{skill.name} — {skill.description}" if skill.description else skill.name)
            item.setData(Qt.ItemDataRole.UserRole, skill.name)
            self.skill_list.addItem(item)

    def _pick_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Choose a skill folder"), str(Path.home()))
        if path:
            self.import_path(Path(path))

    def _pick_zip(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a skill zip"), str(Path.home()),
                                              self.tr("Zip files (*.zip)"))
        if path:
            self.import_path(Path(path))

    def import_path(self, path: Path) -> bool:
        try:
            self.skills.import_path(path)
        except SkillError as exc:
            self.error_label.setText(self.error_text(exc))
            return False
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self.error_label.setText(self.tr("The skill cannot be imported: %1").replace("%1", reason))
            return False
        self.error_label.clear()
        self.reload()
        return True

    def error_text(self, exc: SkillError) -> str:
        words = {
            "skill-file-missing": self.tr("There is no SKILL.md in it."),
            "name-invalid": self.tr("The skill's name may hold only letters, digits, '.', '_' and '-'."),
            "name-taken": self.tr("A skill with this name is already there."),
            "zip-invalid": self.tr("This is not a zip file."),
            "zip-unsafe": self.tr("The zip holds a path outside its folder or a link: not imported."),
            "zip-too-large": self.tr("The zip is too large."),
        }
        return words.get(exc.code, self.tr("The skill cannot be imported: %1").replace("%1", str(exc)))

    def remove_selected(self) -> None:
        item = self.skill_list.currentItem()
        if item is not None:
            self.skills.delete(str(item.data(Qt.ItemDataRole.UserRole)))
            self.reload()
