"""The application core: data, AI streaming, agent sessions, settings. Never imports Qt or the UI
(checked by `lint-imports`, see pyproject.toml)."""
