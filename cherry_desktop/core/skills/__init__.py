"""Cherry-managed skills (`SkillStore`): imported, listed, enabled per agent."""

from cherry_desktop.core.skills.store import Skill, SkillError, SkillStore

__all__ = ["Skill", "SkillError", "SkillStore"]
