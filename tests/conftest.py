from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    """../shared, or skip (it is present in CI and on developers' machines)."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED
