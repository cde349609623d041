"""The compiled engine: an optional build of this package with mypyc, used when it is fresh.

``python compile_engine.py`` compiles a copy of ``engine/`` with mypyc (the compiler that ships with
mypy: the same source, type-checked, as C extension modules) into ``.compiled/`` beside it, and
stamps it with a fingerprint of the sources it was built from. When ``engine`` is imported, this
module puts that copy first on the package's search path if its fingerprint is this tree's (and
this Python's), so every submodule, in every process, is then the compiled one; otherwise nothing
changes and the engine runs as Python. A build left behind by an edit or a checkout is never used
(its fingerprint differs): the compiled engine is always this source, compiled.

The two give the same games (tests/test_compiled_engine.py plays both and compares the records);
the compiled one plays about twice as fast (docs/BENCHMARKS.md).

``CARC_ENGINE=python`` runs the Python engine whatever is built; ``CARC_ENGINE=compiled`` requires
the compiled one (the process stops in one line, exit status 2, if it is missing or stale); ``CARC_ENGINE_BUILD=DIR``
reads the build from DIR instead of ``.compiled/``. Standard library only.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*_args: Any, **_kwargs: Any) -> Any:
        """A no-op where mypy_extensions is not installed (mypyc reads the decorator, Python skips it)."""
        return lambda cls: cls


PACKAGE = Path(__file__).resolve().parent
#: where ``compile_engine.py`` builds by default (the copy of the package is ``BUILD/engine``)
DEFAULT_BUILD = PACKAGE.parent / ".compiled"
#: the file of the built package that holds the fingerprint it was built from
STAMP = "BUILT_FROM"
#: the modules that stay Python in the build (paths in the package): the package's own ``__init__``
#: and this module (they choose the build), ``language`` (mypyc does not export a function named
#: ``_``), ``replay`` (run as ``python -m engine.replay``: a compiled module cannot be ``__main__``)
#: and ``snapshot`` (mypyc's subclass of pickle's C unpickler crashes; read once a game load)
KEPT_AS_PYTHON = ("__init__.py", "_compiled.py", "language.py", "replay.py", "snapshot.py")

log = logging.getLogger(__name__)


def package_files(package: Path) -> list[Path]:
    """The package's own files (sources and the data they read), sorted: no caches, no builds."""
    return sorted(
        path
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".so", ".pyd", ".pyc")
    )


def fingerprint(package: Path = PACKAGE) -> str:
    """What a build must have been made from to be used: every file of the package, and the
    interpreter the extension modules were compiled for."""
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    for path in package_files(package):
        digest.update(str(path.relative_to(package)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def build_dir() -> Path:
    """Where the compiled build is read from (``CARC_ENGINE_BUILD``, else ``.compiled/``)."""
    return Path(os.environ.get("CARC_ENGINE_BUILD") or DEFAULT_BUILD)


def usable(build: Path) -> tuple[bool, str]:
    """Whether the build in ``build`` is of these sources (and this Python), and why not."""
    stamp = build / "engine" / STAMP
    if not stamp.is_file():
        return False, f"no engine is compiled in {build} (python compile_engine.py)"
    if stamp.read_text().strip() != fingerprint():
        return False, f"the compiled engine in {build} was built from other sources (python compile_engine.py)"
    return True, f"the compiled engine in {build} is of these sources"


def refuse(why: str) -> NoReturn:
    """A setting that cannot be honoured stops the process in one line (exit status 2), whichever
    entry point imported the engine first."""
    print(f"engine: {why}", file=sys.stderr)
    raise SystemExit(2)


def activate(package_path: list[str]) -> str:
    """Put a fresh compiled build first on the package's ``__path__``; say which engine runs."""
    wanted = os.environ.get("CARC_ENGINE", "").strip().lower()
    if wanted not in ("", "python", "compiled"):
        refuse(f"CARC_ENGINE is {wanted[:40]!r}: it must be 'python' or 'compiled' (or unset)")
    if wanted == "python":
        return "python"
    build = build_dir()
    fresh, why = usable(build)
    if not fresh:
        if wanted == "compiled":
            refuse(f"CARC_ENGINE=compiled, but {why}")
        if (build / "engine" / STAMP).is_file():
            log.warning("%s: the Python engine runs meanwhile", why)
        return "python"
    package_path.insert(0, str(build / "engine"))
    if str(build) not in sys.path:
        sys.path.append(str(build))  # (mypyc's shared library of the build is a top-level module)
    return "compiled"
