"""`GatewayControl`: the app's gateway follows Settings (enable, port), publishes its status,
takes a regenerated key at once, and a port in use is a status, never a crash."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from cherry_desktop.core.app.bootstrap import CoreServices, start_core
from cherry_desktop.core.gateway import GATEWAY_KEY_NAME, KEY_PREFIX
from cherry_desktop.core.gateway.control import GATEWAY_STATUS_KEY, GatewayControl, GatewayStatus
from cherry_desktop.core.net.http_server import bind_loopback
from cherry_desktop.core.storage.paths import build_path_registry


@pytest.fixture
async def core(tmp_path: Path) -> AsyncIterator[CoreServices]:
    started = await start_core(build_path_registry(tmp_path / "data"))
    try:
        yield started
    finally:
        await started.stop()


def free_port() -> int:
    sock = bind_loopback(0)
    port = int(sock.getsockname()[1])
    sock.close()
    return port


async def test_follows_settings_and_the_key(core: CoreServices) -> None:
    control = GatewayControl(core)
    try:
        assert await control.apply() == GatewayStatus("off", 23333)
        assert core.credentials.try_get(GATEWAY_KEY_NAME) is None  # no key made while off
        port = free_port()
        core.settings.update(gateway_enabled=True, gateway_port=port)
        status = await control.apply()
        assert status == GatewayStatus("running", port, f"http://127.0.0.1:{port}")
        assert core.shared_cache.get(GATEWAY_STATUS_KEY) == status
        key = core.credentials.get(GATEWAY_KEY_NAME)
        assert key is not None and key.startswith(KEY_PREFIX) and control.key() == key
        async with httpx.AsyncClient(base_url=status.base_url) as client:
            assert (await client.get("/v1/agents", headers={"x-api-key": key})).status_code == 200
            new_key = control.regenerate_key()
            assert new_key != key
            assert (await client.get("/v1/agents", headers={"x-api-key": key})).status_code == 401
            assert (await client.get("/v1/agents", headers={"x-api-key": new_key})).status_code == 200
        core.settings.update(gateway_enabled=False)
        assert (await control.apply()).state == "off"
        assert control.base_url is None
    finally:
        await control.stop()


async def test_a_port_in_use_is_a_status(core: CoreServices) -> None:
    taken = bind_loopback(0)
    control = GatewayControl(core)
    try:
        port = int(taken.getsockname()[1])
        core.settings.update(gateway_enabled=True, gateway_port=port)
        assert await control.apply() == GatewayStatus("port-in-use", port)
        assert control.base_url is None
        taken.close()
        assert (await control.apply()).state == "running"
    finally:
        taken.close()
        await control.stop()
