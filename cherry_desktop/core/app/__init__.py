"""Composition of the core process: bootstrap, doctor, logging, the instance lock, memory and
the Qt platform choice (the service container itself is `core.lifecycle`)."""
