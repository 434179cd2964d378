"""Passwords and recovery codes: hashed, and checked off the event loop.

A password is hashed with argon2id (argon2-cffi's :class:`~argon2.PasswordHasher`, its
defaults: 3 passes over 64 MiB, 4 lanes). One hash or check costs tens of milliseconds of CPU
and 64 MiB of memory, so it never runs on the event loop, where every table lives: it runs in a
small pool of threads of its own (argon2-cffi releases the GIL while it works, so the loop goes
on meanwhile). The pool is bounded, :data:`WORKERS` threads (a quarter of the cores, one kept
for the loop: each hash runs on 4 lanes), so that a burst of sign-ins holds at most that many
times 64 MiB; the others wait their turn in its queue. Its threads run at a lower priority
(``nice`` :data:`NICE`, on Linux, where a thread's niceness is its own and the hash's lane
threads inherit it): when the cores are all busy, the event loop is given them first.

Checking a name that is no account still spends one check, against :data:`DUMMY`'s hash, so
that how long a refused sign-in takes does not tell whether the name exists.

Recovery codes are 16 characters drawn from 32 letters and digits (80 random bits), shown as
``ab12-cd34-ef56-gh78``. They are kept as their SHA-256, not argon2: a slow hash protects what
a person chose (a password, guessable from a list), while a code of 80 random bits cannot be
found from its SHA-256 by trying codes (2**80 tries), and a fast hash lets a code be found by
its digest in one query.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

WORKERS = max(1, min(4, ((os.cpu_count() or 2) - 1) // 4))  # hashes at once (64 MiB each)
NICE = 10  # the hashing threads' niceness (the event loop's is the process's)
MIN_PASSWORD = 8  # characters
MAX_PASSWORD = 128
CODES = 10  # recovery codes an account is given
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz123456789"  # 32 symbols, 5 bits each: no i, l, o, 0
CODE_GROUPS = 4  # groups of four: 16 symbols, 80 bits
MAX_CODE = 40  # characters a typed code may have (spaces and dashes are ignored)
DUMMY = "a password no account has"
# its hash, made once with today's defaults (made anew at first use if the defaults change)
DUMMY_HASH = ("$argon2id$v=19$m=65536,t=3,p=4$8j7vjs6gaCuxiGa5E6v6aA"
              "$o6281tAe67AAJlC9GiRPs2S18MZA+8A+NM+MlLwSiqk")

_hasher = PasswordHasher()


def _lower_priority() -> None:
    """(In each hashing thread, once.) Yield the cores to the event loop when they are short."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)


@cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(WORKERS, thread_name_prefix="argon2", initializer=_lower_priority)


@cache
def _dummy_hash() -> str:
    return DUMMY_HASH if not _hasher.check_needs_rehash(DUMMY_HASH) else _hasher.hash(DUMMY)


def hash_now(password: str) -> str:
    """The argon2id hash of ``password`` (on the calling thread)."""
    return _hasher.hash(password)


def verify_now(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` is the hash of (on the calling thread). With
    no hash (no such account) the dummy hash is checked all the same, and the answer is no."""
    try:
        return _hasher.verify(stored or _dummy_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


async def hash_password(password: str) -> str:
    """:func:`hash_now`, in the hashing threads."""
    return await asyncio.get_running_loop().run_in_executor(_pool(), hash_now, password)


async def verify_password(stored: str | None, password: str) -> bool:
    """:func:`verify_now`, in the hashing threads."""
    return await asyncio.get_running_loop().run_in_executor(_pool(), verify_now, stored, password)


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with other parameters than today's (then hash it anew)."""
    try:
        return _hasher.check_needs_rehash(stored)
    except InvalidHashError:
        return True


def new_codes() -> list[str]:
    """:data:`CODES` fresh recovery codes, as they are shown."""
    return ["-".join("".join(secrets.choice(CODE_ALPHABET) for _ in range(4))
                     for _ in range(CODE_GROUPS)) for _ in range(CODES)]


def code_digest(code: str) -> str:
    """What is kept of a recovery code: the SHA-256 of its symbols, in small letters, without
    the dashes and spaces a player may type or leave out."""
    plain = "".join(ch for ch in code.lower() if ch not in "- \t")
    return hashlib.sha256(plain.encode()).hexdigest()
