"""Every test's: under the project's test command (``scripts/test.sh`` sets
``TIENLEN_TEST_EVERY_PACKAGE``), a test skipped because a package would not import fails the
run instead: each package the tests import is one the test extra installs, so such a skip
hides a broken install or a broken adapter (a skipped OpenSpiel test once hid one). Run by
hand without the variable, a machine lacking an extra still skips those tests, each saying
which package."""

from __future__ import annotations

import os

import pytest

MISSING = "could not import"  # the reason pytest.importorskip gives


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not os.environ.get("TIENLEN_TEST_EVERY_PACKAGE"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    missing = [rep for rep in skipped if MISSING in str(rep.longrepr)]
    if missing:
        for rep in missing:
            print(f"\nskipped for a package the test extra installs: {rep.nodeid}: {rep.longrepr}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
