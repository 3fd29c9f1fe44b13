"""`doctor` says when no font covers Chinese or Korean (asked of the real fontconfig)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cherry_desktop.core.app.doctor import DoctorReport, check_fonts
from cherry_desktop.core.app.fonts import FONT_PACKAGES, FontCoverage, font_coverage, font_warning

needs_fc_list = pytest.mark.skipif(shutil.which("fc-list") is None, reason="fontconfig's fc-list is not installed")


@needs_fc_list
def test_a_system_without_cjk_fonts_is_told_which_packages_bring_them(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # A fontconfig that knows one empty font folder: what a minimal install has for CJK.
    (tmp_path / "fonts").mkdir()
    conf = tmp_path / "fonts.conf"
    conf.write_text(f"<?xml version='1.0'?><fontconfig><dir>{tmp_path / 'fonts'}</dir>"
                    f"<cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>")
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf))
    coverage = font_coverage()
    assert coverage.families == {"zh-cn": [], "zh-tw": [], "ko": []}
    report = DoctorReport()
    check_fonts(report)
    assert report.lines == ["fonts: zh-cn none; zh-tw none; ko none"]
    assert len(report.warnings) == 1
    warning = report.warnings[0]
    assert "Simplified Chinese, Traditional Chinese, Korean" in warning and FONT_PACKAGES in warning
    assert "fonts-noto-cjk" in warning and report.ok  # a warning, not a problem


@needs_fc_list
def test_the_fonts_this_machine_has_are_named() -> None:
    coverage = font_coverage()
    assert coverage.families is not None and set(coverage.families) == {"zh-cn", "zh-tw", "ko"}
    report = DoctorReport()
    check_fonts(report)
    assert report.lines[0].startswith("fonts: zh-cn ")
    assert bool(report.warnings) == bool(coverage.missing())


def test_without_fc_list_nothing_is_claimed(tmp_path: Path) -> None:
    assert font_coverage(str(tmp_path / "no-fc-list")).families is None
    assert font_warning(FontCoverage(None)) is None
    assert font_warning(FontCoverage({"zh-cn": ["Noto Sans CJK SC"], "zh-tw": ["Noto Sans CJK TC"],
                                      "ko": ["Noto Sans CJK KR"]})) is None
