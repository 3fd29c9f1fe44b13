"""The local API gateway (issue #25): Anthropic Messages and OpenAI chat completions onto any
provider of Cherry's, the agent and topic API over SSE, on 127.0.0.1 with a ``cs-sk-`` key."""

from cherry_desktop.core.ai.providers.httpx_cli import import_httpx_without_cli

# Before the routes import httpx: the app imports the gateway first (right after its stream
# services, which import no provider), and httpx would load its command-line client with it.
import_httpx_without_cli()

from cherry_desktop.core.gateway.keys import (
    GATEWAY_KEY_NAME,
    KEY_PREFIX,
    GatewayKeyCheck,
    ensure_gateway_key,
    regenerate_gateway_key,
    stored_gateway_key,
)
from cherry_desktop.core.gateway.model_routes import INTERNAL_SESSION_HEADER, ModelGateway, UsageBinding
from cherry_desktop.core.gateway.server import ApiGateway
from cherry_desktop.core.net import PortInUseError

__all__ = [
    "GATEWAY_KEY_NAME",
    "INTERNAL_SESSION_HEADER",
    "KEY_PREFIX",
    "ApiGateway",
    "GatewayKeyCheck",
    "ModelGateway",
    "PortInUseError",
    "UsageBinding",
    "ensure_gateway_key",
    "regenerate_gateway_key",
    "stored_gateway_key",
]
