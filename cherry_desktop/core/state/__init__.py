"""Shared state: the shared cache every window mirrors, and topic ids."""
