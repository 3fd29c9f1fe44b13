"""Composition and lifecycle of the core process: the service container, bootstrap, doctor,
logging, the instance lock."""
