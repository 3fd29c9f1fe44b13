"""Translations: `.ts` sources under `i18n/`, compiled to `.qm`, loaded with `QTranslator`.

`python -m cherry_desktop.ui.shell.i18n_build` compiles every `.ts` with `pyside6-lrelease` (the
packaging step runs it); `update` re-extracts the source strings with `pyside6-lupdate`. At
run time a missing or stale `.qm` is compiled into the cache dir when lrelease is at hand,
and as a last resort the `.ts` is read directly (`TsTranslator`) so a source checkout always
shows its translations.

Qt's own strings (the standard buttons Save / Cancel / OK, the file dialog, a text field's
context menu) come from Qt's `qtbase_<locale>.qm`, shipped with PySide6 in Qt's translations
folder (`QLibraryInfo`'s TranslationsPath; the bundle keeps it at the same place).
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from cherry_desktop.ui.common import LOCALES
from cherry_desktop.ui.shell._resources import i18n_dir

log = logging.getLogger(__name__)

SOURCE_LOCALE = "en_US"
# Qt's catalogues the app's widgets use (QtCore/QtGui/QtWidgets strings are all in qtbase).
QT_CATALOGUES = ("qtbase",)
# `i18n/qt_<locale>.ts`: Qt strings its catalogues lack (the widgets' file dialog).
QT_GAPS_PREFIX = "qt_"


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
            out[(name, source)] = text if text.strip() else ""  # only whitespace: unfinished too
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


def load_translator(language: str, cache_dir: Path | None = None, prefix: str = "") -> QTranslator | None:
    """A translator for `language` (None for the source locale) from `i18n/<prefix><locale>.ts`
    (compiled, or read as it is); `prefix` "qt_" is the catalogue of Qt strings Qt's own lacks."""
    locale = pick_locale(language)
    if locale == SOURCE_LOCALE:
        return None
    ts = i18n_dir() / f"{prefix}{locale}.ts"
    for qm in (ts.with_suffix(".qm"), (cache_dir / f"{prefix}{locale}.qm") if cache_dir else None):
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


def qt_translations_dir() -> Path:
    """Where Qt's own `.qm` catalogues are (PySide6's `Qt/translations`)."""
    return Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))


def load_qt_translators(language: str, directory: Path | None = None) -> list[QTranslator]:
    """Qt's own translators for `language` (none for the source locale); a missing catalogue
    is logged, and Qt's strings then stay English."""
    locale = pick_locale(language)
    if locale == SOURCE_LOCALE:
        return []
    directory = directory or qt_translations_dir()
    out: list[QTranslator] = []
    for catalogue in QT_CATALOGUES:
        translator = QTranslator()
        if translator.load(f"{catalogue}_{locale}", str(directory)):
            out.append(translator)
        else:
            log.warning("Qt's %s translation for %s is not in %s", catalogue, locale, directory)
    return out


class Translations:
    """Keeps the installed translators (the app's and Qt's own) alive and swaps them on a
    language change."""

    def __init__(self, cache_dir: Path | None = None) -> None:
        self.cache_dir = cache_dir
        self.translator: QTranslator | None = None
        self.qt_translators: list[QTranslator] = []
        self.locale = SOURCE_LOCALE

    def install(self, language: str) -> str:
        app = QCoreApplication.instance()
        if app is not None:
            for old in [self.translator, *self.qt_translators]:
                if old is not None:
                    QCoreApplication.removeTranslator(old)
        self.translator = load_translator(language, self.cache_dir)
        gaps = load_translator(language, self.cache_dir, prefix=QT_GAPS_PREFIX)
        # Installed later is asked first: ours, then the gaps, then Qt's catalogues.
        self.qt_translators = [*load_qt_translators(language), *([gaps] if gaps is not None else [])]
        if app is not None:
            for new in [*self.qt_translators, self.translator]:
                if new is not None:
                    QCoreApplication.installTranslator(new)
        self.locale = pick_locale(language)
        # Dates and times follow a translated language; in English, the system's formats (en_GB's too).
        QLocale.setDefault(QLocale(self.locale) if self.locale != SOURCE_LOCALE else QLocale.system())
        return self.locale
