"""Small helpers every part of the screen uses: tasks spawned from widgets, a flow layout.
"""

from __future__ import annotations

from cherry_desktop.ui.common._flow_layout import FlowLayout, flow_policy
from cherry_desktop.ui.common._tasks import drain, spawn

__all__ = [
    "FlowLayout", "drain", "flow_policy", "spawn"
]
