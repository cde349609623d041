import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import os  # noqa: E402

# The suite tests the Python engine, and tests/test_compiled_engine.py that the compiled one (when built:
# python compile_engine.py) gives the same games; CARC_ENGINE=compiled runs the whole suite on the compiled
# one (a few tests that read a game's attributes as a Python object's are then skipped).
os.environ.setdefault("CARC_ENGINE", "python")
# One snapshot seal key for the test session and the processes it starts (service/gamelog.py).
os.environ.setdefault("SNAPSHOT_KEY", "tests-" + os.urandom(16).hex())
import subprocess  # noqa: E402

import pytest  # noqa: E402

from tests.postgres_server import PostgresServer  # noqa: E402


@pytest.fixture(scope="session")
def postgres():
    """The session's PostgreSQL server (see tests/postgres_server.py)."""
    server = PostgresServer()
    try:
        server.start()
    except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        why = f"no PostgreSQL server for the tests: {exc} {detail.decode(errors='replace')[-400:]}"
        if os.environ.get("REQUIRE_POSTGRES"):
            pytest.fail(why)
        pytest.skip(why)
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A new, empty database of each backend: an SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "test.db")
    return request.getfixturevalue("postgres").new_database()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Soak runs (marked slow) take minutes by design: no per-test time limit for them."""
    for item in items:
        if item.get_closest_marker("slow") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(0))
