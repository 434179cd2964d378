"""The one place numba is imported: the compiled fast path's decorators (cached on disk)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from numba import njit  # type: ignore[import-untyped, unused-ignore]
from numba.core import config  # type: ignore[import-untyped, unused-ignore]

from .cache import settle

if settle() and getattr(config, "CACHE_DIR", "") != os.environ.get("NUMBA_CACHE_DIR", ""):
    config.reload_config()  # type: ignore[no-untyped-call, unused-ignore]  # read before settled

jit = njit(cache=True, nogil=True)
# ``kernel``: for code that creates no array. Without numba's reference counting the arrays
# it is handed are borrowed for the call instead of counted in and out (two atomic calls per
# array and call: most of the cost of a small compiled function); an allocation there fails
# to compile.
if TYPE_CHECKING:
    kernel = jit  # the same decorator to mypy (the stubs do not know ``_nrt``)
else:
    def _kernel_decorator():  # type: ignore[no-untyped-def]
        """``_nrt`` is an internal target option: a numba without it compiles as ``jit``."""
        try:
            from numba.core.cpu import CPUTargetOptions
        except ImportError:
            return jit
        if not hasattr(CPUTargetOptions, "_nrt"):
            return jit
        return njit(cache=True, nogil=True, _nrt=False)

    kernel = _kernel_decorator()
