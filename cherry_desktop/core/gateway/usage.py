"""Token usage read from either dialect, in one shape (`Usage`), and written back to each.

Anthropic's ``input_tokens`` leaves out cache reads and writes (reported beside it); OpenAI's
``prompt_tokens`` includes cached tokens (``prompt_tokens_details.cached_tokens``). `Usage`
keeps Anthropic's split, which the usage records store.
"""

from __future__ import annotations

from dataclasses import dataclass

from cherry_desktop.core.gateway.wire import Wire, WireObject


def _int(value: Wire) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    seen: bool = False

    def update_from_anthropic(self, usage: Wire) -> None:
        """Merge an Anthropic ``usage`` object (message_start's, then message_delta's)."""
        if not isinstance(usage, dict):
            return
        self.seen = True
        if "input_tokens" in usage and usage["input_tokens"] is not None:
            self.input_tokens = _int(usage["input_tokens"])
        if usage.get("output_tokens") is not None:
            self.output_tokens = _int(usage["output_tokens"])
        if usage.get("cache_read_input_tokens") is not None:
            self.cache_read_tokens = _int(usage["cache_read_input_tokens"])
        if usage.get("cache_creation_input_tokens") is not None:
            self.cache_write_tokens = _int(usage["cache_creation_input_tokens"])

    def update_from_openai(self, usage: Wire) -> None:
        """Take an OpenAI ``usage`` object (the last stream chunk's, or a completion's)."""
        if not isinstance(usage, dict):
            return
        self.seen = True
        prompt_details = usage.get("prompt_tokens_details")
        cached = _int(prompt_details.get("cached_tokens")) if isinstance(prompt_details, dict) else 0
        # Some OpenAI-compatible servers (DeepSeek) report their cache hits this way.
        cached = cached or _int(usage.get("prompt_cache_hit_tokens"))
        self.cache_read_tokens = cached
        self.input_tokens = max(0, _int(usage.get("prompt_tokens")) - cached)
        self.output_tokens = _int(usage.get("completion_tokens"))
        details = usage.get("completion_tokens_details")
        self.reasoning_tokens = _int(details.get("reasoning_tokens")) if isinstance(details, dict) else 0

    def anthropic(self) -> dict[str, int]:
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                "cache_creation_input_tokens": self.cache_write_tokens,
                "cache_read_input_tokens": self.cache_read_tokens}

    def openai(self) -> WireObject:
        prompt = self.input_tokens + self.cache_read_tokens + self.cache_write_tokens
        out: WireObject = {"prompt_tokens": prompt, "completion_tokens": self.output_tokens,
                               "total_tokens": prompt + self.output_tokens}
        if self.cache_read_tokens:
            out["prompt_tokens_details"] = {"cached_tokens": self.cache_read_tokens}
        if self.reasoning_tokens:
            out["completion_tokens_details"] = {"reasoning_tokens": self.reasoning_tokens}
        return out


__all__ = ["Usage"]
