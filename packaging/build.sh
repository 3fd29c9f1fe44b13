#!/usr/bin/env bash
# packaging/build.sh [OUT_DIR]: build the Linux bundle from a clean virtualenv.
#
#   1. a fresh venv under build/bundle/venv with the app and its `bundle` extra (PyInstaller)
#      from the package index: nothing of a developer's venv leaks in;
#   2. compile the .ts translations to .qm (pyside6-lrelease, shipped by PySide6-Essentials);
#   3. PyInstaller onedir with packaging/cherry-desktop.spec;
#   4. OUT_DIR/cherry-desktop-<version>-linux-<arch>.tar.gz (default OUT_DIR: dist/), holding
#      cherry-desktop-<version>/ with the app, the .desktop entry, the AppStream metadata and
#      the icon under share/.
# Prints the path of the tarball as its last line. PYTHON picks the interpreter (python3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/dist}" && cd "${1:-$root/dist}" && pwd)
work=$root/build/bundle
python=${PYTHON:-python3}
export PIP_DISABLE_PIP_VERSION_CHECK=1
t0=$(date +%s)
say() { echo "[build $(( $(date +%s) - t0 ))s] $*" >&2; }

rm -rf "$work"
mkdir -p "$work/i18n"
say "clean virtualenv: the app and PyInstaller"
"$python" -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$root[bundle]" > "$work/pip.log" 2>&1 || { cat "$work/pip.log" >&2; exit 1; }
version=$(cd "$work" && "$work/venv/bin/python" -c "import cherry_desktop; print(cherry_desktop.__version__)")
grep -q "<release version=\"$version\"" "$root/packaging/io.cherry_desktop.CherryDesktop.metainfo.xml" || {
  echo "packaging/io.cherry_desktop.CherryDesktop.metainfo.xml has no <release version=\"$version\">" >&2
  exit 1
}

say "compile translations (.ts -> .qm)"
cp "$root"/i18n/*.ts "$work/i18n/"
(cd "$work" && "$work/venv/bin/python" -c "
import sys
from pathlib import Path
from cherry_desktop.ui.shell.i18n import build
ts = sorted(Path('i18n').glob('*.ts'))
qm = build(Path('i18n'))
sys.exit(0 if len(qm) == len(ts) else f'compiled {len(qm)} of {len(ts)} translations')")
rm "$work"/i18n/*.ts

say "PyInstaller onedir"
CHERRY_BUNDLE_I18N="$work/i18n" "$work/venv/bin/pyinstaller" --noconfirm --log-level WARN \
  --workpath "$work/pyinstaller" --distpath "$work/dist" "$root/packaging/cherry-desktop.spec" >&2

say "tarball"
name=cherry-desktop-$version
stage=$work/stage/$name
mkdir -p "$stage/share/applications" "$stage/share/metainfo" "$stage/share/icons/hicolor/scalable/apps"
mv "$work/dist/cherry-desktop"/* "$stage/"
cp "$root/packaging/cherry-desktop.desktop" "$stage/share/applications/"
cp "$root/packaging/io.cherry_desktop.CherryDesktop.metainfo.xml" "$stage/share/metainfo/"
cp "$root/resources/icons/cherry.svg" "$stage/share/icons/hicolor/scalable/apps/cherry-desktop.svg"
tarball=$out/$name-linux-$(uname -m).tar.gz
tar -C "$work/stage" -cf - "$name" | gzip -1 > "$tarball"
say "done: $(du -sh "$stage" | cut -f1) unpacked, $(du -h "$tarball" | cut -f1) packed"
echo "$tarball"
