"""Whether the system has fonts for the app's Chinese translations (and Korean text in
messages): a minimal Linux install has none, and Qt then draws boxes. Asked of fontconfig's
`fc-list`, so the check needs no Qt."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass

# fontconfig language tags, and what the user reads them as.
SCRIPTS: dict[str, str] = {"zh-cn": "Simplified Chinese", "zh-tw": "Traditional Chinese", "ko": "Korean"}
# The packages that bring them, per package manager (Noto CJK covers all three).
FONT_PACKAGES = ("fonts-noto-cjk (Debian, Ubuntu; or the smaller fonts-wqy-microhei for Chinese, "
                 "fonts-nanum for Korean), google-noto-sans-cjk-fonts (Fedora), noto-fonts-cjk (Arch)")


@dataclass(frozen=True)
class FontCoverage:
    """The families fontconfig lists per language tag; None when fc-list is not there."""

    families: dict[str, list[str]] | None

    def missing(self) -> list[str]:
        """The scripts no installed font covers (empty when unknown)."""
        if self.families is None:
            return []
        return [SCRIPTS[tag] for tag, found in self.families.items() if not found]


def font_coverage(fc_list: str | None = None, timeout: float = 20.0) -> FontCoverage:
    """Ask fontconfig which font families cover each script of SCRIPTS."""
    command = fc_list or shutil.which("fc-list")
    if command is None:
        return FontCoverage(None)
    families: dict[str, list[str]] = {}
    for tag in SCRIPTS:
        try:
            proc = subprocess.run([command, f":lang={tag}", "family"], capture_output=True, text=True,
                                  timeout=timeout, check=False)
        except (OSError, subprocess.SubprocessError):
            return FontCoverage(None)
        families[tag] = sorted({line.split(",")[0].strip() for line in proc.stdout.splitlines() if line.strip()})
    return FontCoverage(families)


def font_warning(coverage: FontCoverage) -> str | None:
    """The doctor's warning when a script has no font (None when all are covered or unknown)."""
    missing = coverage.missing()
    if not missing:
        return None
    return (f"no font for {', '.join(missing)} is installed: that text shows as boxes; install "
            f"{FONT_PACKAGES}")
