"""Translations: `.ts` sources under `i18n/`, compiled to `.qm`, loaded with `QTranslator`.

`python -m cherry_desktop.ui.shell.i18n_build` compiles every `.ts` with `pyside6-lrelease` (the
packaging step runs it); `update` re-extracts the source strings with `pyside6-lupdate`. At
run time a missing or stale `.qm` is compiled into the cache dir when lrelease is at hand,
and as a last resort the `.ts` is read directly (`TsTranslator`) so a source checkout always
shows its translations.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

from cherry_desktop.ui.common import LOCALES
from cherry_desktop.ui.shell._resources import i18n_dir

log = logging.getLogger(__name__)

SOURCE_LOCALE = "en_US"


def pick_locale(language: str) -> str:
    """One of LOCALES for a setting ('' follows the system locale)."""
    name = language or QLocale.system().name()
    name = name.replace("-", "_")
    if name in LOCALES:
        return name
    if name.startswith("zh"):
        return "zh_TW" if any(t in name for t in ("TW", "HK", "MO", "Hant")) else "zh_CN"
    return SOURCE_LOCALE


def _tool(name: str) -> str | None:
    local = Path(sys.executable).with_name(name)
    if local.exists():
        return str(local)
    return shutil.which(name)


def compile_ts(ts: Path, qm: Path) -> bool:
    """Compile one `.ts` into `.qm` with pyside6-lrelease; False if that is not possible."""
    lrelease = _tool("pyside6-lrelease")
    if lrelease is None:
        return False
    qm.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([lrelease, "-silent", str(ts), "-qm", str(qm)], capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0:
        log.warning("lrelease failed for %s: %s", ts, proc.stderr.strip())
        return False
    return qm.exists()


def build(directory: Path | None = None) -> list[Path]:
    """Compile every `.ts` of `directory` next to it (the build/install step)."""
    directory = directory or i18n_dir()
    out = []
    for ts in sorted(directory.glob("*.ts")):
        qm = ts.with_suffix(".qm")
        if compile_ts(ts, qm):
            out.append(qm)
    return out


def update_sources(directory: Path | None = None) -> None:
    """Re-extract `tr()` strings of `cherry_desktop/ui` into every `.ts` (keeps translations)."""
    directory = directory or i18n_dir()
    lupdate = _tool("pyside6-lupdate")
    if lupdate is None:
        raise RuntimeError("pyside6-lupdate not found")
    ui = Path(__file__).resolve().parent.parent  # cherry_desktop/ui, every subpackage
    sources = sorted(str(p) for p in ui.rglob("*.py"))
    for locale in LOCALES:
        subprocess.run([lupdate, "-silent", "-locations", "none", "-no-obsolete", *sources,
                        "-target-language", locale, "-ts", str(directory / f"{locale}.ts")], check=True)


def read_ts(path: Path) -> dict[tuple[str, str], str]:
    """(context, source) -> translation of a `.ts` file ('' when unfinished)."""
    out: dict[tuple[str, str], str] = {}
    root = ET.parse(path).getroot()
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            tr = message.find("translation")
            text = ""
            if tr is not None and tr.get("type") not in ("unfinished", "obsolete", "vanished"):
                numerus = tr.findall("numerusform")
                text = (numerus[0].text or "") if numerus else (tr.text or "")
            out[(name, source)] = text
    return out


class TsTranslator(QTranslator):
    """Serves translations straight from a `.ts` file (fallback without lrelease)."""

    def __init__(self, ts: Path) -> None:
        super().__init__()
        self._table = {k: v for k, v in read_ts(ts).items() if v}

    def translate(self, context: str, source: str, disambiguation: str | None = None, n: int = -1) -> str:
        text = self._table.get((context, source), "")
        if text and n >= 0:
            text = text.replace("%n", str(n))
        return text

    def isEmpty(self) -> bool:
        return not self._table


def load_translator(language: str, cache_dir: Path | None = None) -> QTranslator | None:
    """A translator for `language` (None for the source locale)."""
    locale = pick_locale(language)
    if locale == SOURCE_LOCALE:
        return None
    ts = i18n_dir() / f"{locale}.ts"
    for qm in (ts.with_suffix(".qm"), (cache_dir / f"{locale}.qm") if cache_dir else None):
        if qm is None:
            continue
        fresh = qm.exists() and (not ts.exists() or qm.stat().st_mtime >= ts.stat().st_mtime)
        if not fresh and ts.exists() and qm.parent != ts.parent:
            fresh = compile_ts(ts, qm)
        if fresh:
            translator = QTranslator()
            if translator.load(str(qm)):
                return translator
    if ts.exists():
        return TsTranslator(ts)
    return None


class Translations:
    """Keeps the installed translator alive and swaps it on a language change."""

    def __init__(self, cache_dir: Path | None = None) -> None:
        self.cache_dir = cache_dir
        self.translator: QTranslator | None = None
        self.locale = SOURCE_LOCALE

    def install(self, language: str) -> str:
        app = QCoreApplication.instance()
        if self.translator is not None and app is not None:
            QCoreApplication.removeTranslator(self.translator)
        self.translator = load_translator(language, self.cache_dir)
        if self.translator is not None and app is not None:
            QCoreApplication.installTranslator(self.translator)
        self.locale = pick_locale(language)
        return self.locale
