"""How the suite is laid out for `make test` (two xdist workers, one test file per work unit)."""

from __future__ import annotations

import pytest


def test_model_tests_share_one_file(request: pytest.FixtureRequest) -> None:
    """Every test marked `llm` lives in tests/test_llm_integration.py: xdist hands a file to one
    worker, so the session's model server starts once; a model test in another file could land
    on the other worker and start a second server on the same two cores."""
    files = {item.path.name for item in request.session.items
             if item.get_closest_marker("llm")}
    assert files <= {"test_llm_integration.py"}, sorted(files)
