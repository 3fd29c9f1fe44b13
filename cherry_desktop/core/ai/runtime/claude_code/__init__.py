"""The Claude Code runtime driver (claude-agent-sdk); imports the SDK lazily."""
