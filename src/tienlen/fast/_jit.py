"""The one place numba is imported: the compiled fast path's decorator (cached on disk)."""

from __future__ import annotations

from numba import njit  # type: ignore[import-untyped, unused-ignore]

jit = njit(cache=True, nogil=True)
