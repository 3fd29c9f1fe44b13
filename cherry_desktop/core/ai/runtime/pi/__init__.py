"""The pi runtime (`@mariozechner/pi-coding-agent` in its RPC mode)."""
