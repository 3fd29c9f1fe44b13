"""Cherry Desktop: chat with models and coding agents in several windows at once."""

__version__ = "0.1.0"

__all__ = ["__version__"]
