"""Where a frame of self-play training goes: CPU seconds by part (``tienlen train``'s ``split``)."""

from __future__ import annotations

PARTS = ("environment", "features", "inference", "learning")


class FrameClock:
    """Where a frame's time goes: CPU seconds spent in each of :data:`PARTS` (``environment``:
    the game, its turns and the bots; ``features``: the network's inputs; ``inference``: the
    numpy network's scores; ``learning``: the torch steps and the copy back to numpy)."""

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(PARTS, 0.0)

    def add(self, part: str, seconds: float) -> None:
        self.seconds[part] += seconds

    def shares(self) -> dict[str, float]:
        """Each part's share of the time measured (0 to 1)."""
        total = sum(self.seconds.values()) or 1.0
        return {part: spent / total for part, spent in self.seconds.items()}


__all__ = ["PARTS", "FrameClock"]
