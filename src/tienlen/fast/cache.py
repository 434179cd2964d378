"""Where the fast path's compiled code is kept between runs (numba's on-disk cache).

Compiling the fast path takes about a minute; loading it from the cache, about a second. numba
keeps what it compiled beside the sources (``__pycache__`` in the package's folder) and, where
that folder is read-only (an installed package, a container image), in the user's cache folder
(``~/.cache/numba``). A service whose user has neither (a read-only image, no home) would
compile at every start: :func:`settle` gives it a folder of its own instead.

The order: ``NUMBA_CACHE_DIR`` when set (numba's own setting); else ``TIENLEN_CACHE_DIR``
(``tienlen serve --cache-dir``); else the package's folder, or numba's user folder, whichever
numba can write; else a folder of this user's own under the system's temporary folder (made
private: numba's cache files are pickles, so a folder another user could write is never
used). This module imports neither numba nor numpy.

numba compiles a cached function again when its own file changes, not when a function it calls
in another file does: a checkout that changed ``features.py`` alone would load ``selfplay.py``'s
kernels compiled with the old features. So, but where ``NUMBA_CACHE_DIR`` is given, the code is
kept in a folder named by a digest of the fast path's sources (:func:`sources_digest`): other
sources, another folder, everything compiled afresh. The folders of other sources beside it are
removed once they have not been used for :data:`KEEP_DAYS` days.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

CACHE_ENV = "TIENLEN_CACHE_DIR"  # the folder for compiled code (its numba/ subfolder is used)
_HERE = Path(__file__).resolve().parent
SOURCES = "src-"  # the start of a folder's name that holds the code of one set of sources
KEEP_DAYS = 7  # a folder of other sources unused this long is removed


def sources_digest() -> str:
    """A digest of the fast path's sources (every ``.py`` file of this package, by name and
    content): the name of the folder their compiled code is kept in."""
    digest = hashlib.sha256()
    for path in sorted(_HERE.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def for_sources(folder: Path) -> Path:
    """The folder under ``folder`` for the code of the sources as they are now; the folders
    of other sources there unused for :data:`KEEP_DAYS` days removed."""
    mine = folder / (SOURCES + sources_digest())
    stale = time.time() - KEEP_DAYS * 86400
    for other in folder.glob(SOURCES + "*"):
        try:
            if other != mine and other.is_dir() and not other.is_symlink() \
                    and other.stat().st_mtime < stale:
                shutil.rmtree(other, ignore_errors=True)
        except OSError:
            continue
    try:
        mine.mkdir(parents=True, exist_ok=True)
        os.utime(mine)  # in use: not removed by another set of sources' start
    except OSError:
        pass
    return mine


def writable(folder: Path) -> bool:
    """Whether files can be made in ``folder`` (made first if missing), tried for real: a
    read-only mount passes ``os.access`` for root, and fails here."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def user_folder() -> Path:
    """numba's user-wide cache folder (as numba names it, XDG's on Linux)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "numba"


def private_folder() -> Path | None:
    """A folder under the temporary folder that only this user can write (None: none can be
    had, or one of that name exists that another user could write to)."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    folder = Path(tempfile.gettempdir()) / f"tienlen-cache-{uid}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid \
            or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    return folder / "numba" if writable(folder / "numba") else None


def settle() -> str | None:
    """Decide where compiled code is kept, telling numba through ``NUMBA_CACHE_DIR`` where it
    would not find a place itself (call before numba is imported; worker processes started
    later inherit it); returns the folder (None: nowhere, so every start compiles)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    chosen = os.environ.get(CACHE_ENV)
    folder: Path | None = Path(chosen).expanduser() / "numba" if chosen else None
    if folder is None or not writable(folder):  # not given, or not usable: numba's own places
        if writable(_HERE / "__pycache__"):
            folder = _HERE / "__pycache__" / "numba"
        elif writable(user_folder()):
            folder = user_folder()
        else:
            folder = private_folder()
    if folder is None:
        return None
    kept = str(for_sources(folder))
    os.environ["NUMBA_CACHE_DIR"] = kept
    return kept
