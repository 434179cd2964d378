"""The REST API against its own OpenAPI schema, fuzzed by schemathesis (a bounded run): no answer is
a server error, and every answer (status, media type, body) is one the schema lists."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis", reason="the tests' extra brings schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tienlen.web.app import create_app  # noqa: E402

from .conftest import Server  # noqa: E402

EXAMPLES = 30  # per operation: about 250 requests in all, a few seconds


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'tienlen.sqlite3'}")
    srv.start()
    srv.post("/api/tables", {"quick": True, "players": 2, "seed": 5})  # a table to find
    yield srv
    srv.stop()


# the schema the server serves at /openapi.json, read from an app made for it (collection needs
# it before any server runs)
schema = schemathesis.openapi.from_dict(create_app("sqlite://").openapi())


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_server_error_and_no_answer_outside_the_schema(case: Any, fuzzed_server: Server) -> None:
    # a generous bound: a sign-in's password check (argon2) is slow on a loaded machine
    case.call_and_validate(base_url=fuzzed_server.base, timeout=60,
                           checks=[not_a_server_error, status_code_conformance,
                                   content_type_conformance, response_schema_conformance])


def test_the_schema_fuzzed_is_the_one_served(fuzzed_server: Server) -> None:
    assert fuzzed_server.get("/openapi.json").json() == schema.raw_schema
