"""`TopicHold`: whether a topic stream stays open past its next terminal, and why.

One value per `ActiveStream`, and every transition is a method here:

    NONE --request--> REQUESTED --settle (topic terminal)--> HELD --release--> NONE
    NONE --hold_for_chain--> HELD            (a steer continuation is being prepared)
    HELD --defer_chain--> CHAIN_DEFERRED --hold_for_chain--> HELD   (writes were paused)
    any  --release--> NONE                   (continuation launched, topic finalised/failed)

A held topic is live (`has_live_stream` is True) although no execution runs: a send injects
into it instead of starting a rival stream.
"""

from __future__ import annotations

import enum


class TopicHold(enum.Enum):
    NONE = "none"
    # will_continue_topic(): the next topic terminal keeps the stream open.
    REQUESTED = "requested"
    # Kept open, no execution running: a continuation is about to start on this stream.
    HELD = "held"
    # A steer continuation waits for the write quiesce to end.
    CHAIN_DEFERRED = "chain-deferred"

    def request(self) -> TopicHold:
        """The host asked to continue: a topic already held stays held."""
        return self if self is not TopicHold.NONE else TopicHold.REQUESTED

    def settle(self) -> TopicHold:
        """The topic reached its terminal: a requested hold takes effect."""
        return TopicHold.HELD if self is TopicHold.REQUESTED else self

    def hold_for_chain(self) -> TopicHold:
        """A steer continuation is being prepared (a concurrent send must inject)."""
        return TopicHold.HELD

    def defer_chain(self) -> TopicHold:
        """The continuation waits for writes to resume."""
        return TopicHold.CHAIN_DEFERRED

    def release(self) -> TopicHold:
        """A continuation launched, or the topic was finalised: nothing holds it any more."""
        return TopicHold.NONE

    @property
    def keeps_open(self) -> bool:
        """No execution needs to run for the topic to count as live."""
        return self is TopicHold.HELD or self is TopicHold.CHAIN_DEFERRED

    @property
    def holding(self) -> bool:
        """Any hold at all (requested or in effect)."""
        return self is not TopicHold.NONE

    def can_continue_in_place(self, executions_running: bool) -> bool:
        """`start_runtime_turn` may launch on this stream instead of starting a new one."""
        return self is TopicHold.HELD or (self is TopicHold.REQUESTED and not executions_running)
