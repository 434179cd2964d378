"""Seats: numbered 0..n-1 in the order of play; their names, turn order, and the packs dealt."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import ArgumentError


def seats_from(seat: int, n: int) -> list[int]:
    """All ``n`` seats in turn order starting with ``seat``."""
    return [(seat + i) % n for i in range(n)]


def check_seat(seat: object, n: int, what: str, error: type[Exception] = ArgumentError) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise error(f"{what} must be a seat number from 0 to {n - 1}, not {seat!r}")
    return seat


def packs_for(players: int) -> int:
    """One pack for 2-4 players, two packs shuffled together for 5-8."""
    return 1 if players <= 4 else 2


def check_names(names: Sequence[str] | None, n: int) -> tuple[str, ...]:
    if names is None:
        return tuple(f"Player {i + 1}" for i in range(n))
    if isinstance(names, str) or len(names) != n or not all(isinstance(x, str) and x for x in names):
        raise ArgumentError(f"names must be {n} non-empty names, one per seat")
    return tuple(names)
