"""The local-model helper creates everything it needs under an empty cache root."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.testing import local_server


def test_cache_root_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "nowhere-yet"
    monkeypatch.setenv(local_server.CACHE_ENV, str(root))
    assert local_server.cache_root() == root
    assert not root.exists()
    models = local_server.model_dir()
    assert models == root / "models"
    assert models.is_dir()


def test_cache_root_defaults_to_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(local_server.CACHE_ENV, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert local_server.cache_root() == tmp_path / ".cache" / "freightsim"
