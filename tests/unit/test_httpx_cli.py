"""The providers import httpx without its command-line client (rich, click), and `httpx.main`
still runs it. Each case runs in a fresh interpreter (this process has imported httpx whole)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_the_providers_import_httpx_without_its_command_line_client() -> None:
    out = run("""
        import sys
        import PySide6.QtCore  # its import hook reads every new module (it must not run them)
        from cherry_desktop.core.ai.providers import create_provider
        import httpx
        request = httpx.Client().build_request("POST", "http://127.0.0.1:9/v1/messages", json={"a": 1})
        print(request.headers["content-type"], sorted(m for m in ("rich", "click") if m in sys.modules))
    """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "application/json []"


def test_the_gateway_imports_httpx_without_its_command_line_client() -> None:
    # The app's first import of httpx: the gateway starts right after the stream services,
    # which import no provider.
    out = run("""
        import sys
        from cherry_desktop.core.gateway.control import GatewayControl
        print("httpx" in sys.modules, sorted(m for m in ("rich", "click") if m in sys.modules))
    """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True []"


def test_httpx_main_runs_the_command_line_client() -> None:
    out = run("""
        import sys
        import cherry_desktop.core.ai.providers
        import httpx
        sys.argv = ["httpx", "--help"]
        httpx.main()
    """)
    assert out.returncode == 0, out.stderr
    assert "Usage: httpx <URL> [OPTIONS]" in out.stdout
    assert "HTTPX" in out.stdout


def test_other_names_of_the_cli_module_run_it() -> None:
    out = run("""
        import sys
        import cherry_desktop.core.ai.providers
        import httpx._main
        print(callable(httpx._main.print_help), "rich" in sys.modules, httpx.main is not httpx._main.main)
    """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True True True"


def test_nothing_is_deferred_when_httpx_is_already_imported() -> None:
    out = run("""
        import sys
        import httpx
        import cherry_desktop.core.ai.providers
        from cherry_desktop.core.ai.providers.httpx_cli import httpx_cli_main
        print(httpx.main is httpx._main.main, httpx.main is httpx_cli_main, "rich" in sys.modules)
    """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True False True"
