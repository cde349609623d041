"""Compile the engine with mypyc (optional: the computers think about twice as fast).

python compile_engine.py            build ``.compiled/`` from ``engine/`` (a few minutes; needs mypy,
                                    setuptools, gcc and Python's headers: pip install -r requirements-dev.txt);
                                    nothing to do if it is of these sources already (--force: build anyway)
python compile_engine.py --check    say which engine ``import engine`` gets here, and why (exit 0: compiled)
python compile_engine.py --clean    remove the build (the Python engine runs)

The build is a copy of ``engine/`` with its modules compiled, stamped with a fingerprint of the sources;
``engine/_compiled.py`` uses it only while the sources are those it was built from, so after an edit or a
checkout the Python engine runs until the next build. ``--out DIR`` builds elsewhere (read it with
``CARC_ENGINE_BUILD=DIR``). Every failure is one line on stderr and exit 2.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

# (importing the package says when a stale build is set aside: here that build is what is replaced)
logging.getLogger("engine._compiled").setLevel(logging.ERROR)
from engine import _compiled  # noqa: E402

ROOT = Path(__file__).resolve().parent
# (loaded as the bot would: the package chose the build, and its board module is an extension module)
SMOKE = (
    "import importlib.machinery, engine, engine.board; "
    "print(engine.IMPLEMENTATION, engine.board.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)))"
)


class BuildFailed(Exception):
    """Why the build could not be made (one line)."""


def copy_package(dest: Path) -> str:
    """Copy the package's files into ``dest/engine``; the fingerprint of what was copied."""
    before = _compiled.fingerprint()
    for path in _compiled.package_files(_compiled.PACKAGE):
        target = dest / "engine" / path.relative_to(_compiled.PACKAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    if _compiled.fingerprint() != before:
        raise BuildFailed("engine/ changed while it was being copied: run the build again")
    return before


def compile_copy(work: Path, log: Path) -> int:
    """Compile the copy in ``work`` in place (mypyc, then the C compiler); the number of modules."""
    try:
        from mypyc.build import mypycify
        from setuptools import setup  # type: ignore[import-untyped]
    except ImportError as exc:
        needed = f"compiling needs mypy and setuptools ({exc}): pip install -r requirements-compile.txt"
        raise BuildFailed(needed) from exc
    kept = {work / "engine" / name for name in _compiled.KEPT_AS_PYTHON}
    modules = sorted(str(p.relative_to(work)) for p in (work / "engine").rglob("*.py") if p not in kept)
    here = Path.cwd()
    os.chdir(work)
    output = io.StringIO()
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            setup(
                name="carcassonne-engine-compiled",
                packages=[],
                py_modules=[],
                ext_modules=mypycify(modules, opt_level="3"),
                script_args=["build_ext", "--inplace", "--build-temp", "build", "--build-lib", "build"],
            )
    except (SystemExit, Exception) as exc:
        log.write_text(output.getvalue() + f"\n{exc!r}\n")
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise BuildFailed(f"the compiler failed ({first[:160]}): see {log}") from exc
    finally:
        os.chdir(here)
    log.write_text(output.getvalue())
    for scratch in ("build", ".mypy_cache"):  # (the C sources and mypy's cache: not part of the build)
        shutil.rmtree(work / scratch, ignore_errors=True)
    return len(modules)


def build(dest: Path) -> str:
    """Build the compiled engine into ``dest`` (replacing what was there only once it works)."""
    started = time.perf_counter()
    work = dest.with_name(dest.name + ".building")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    log = dest.with_name(dest.name + ".log")
    stamp = copy_package(work)
    count = compile_copy(work, log)
    (work / "engine" / _compiled.STAMP).write_text(stamp + "\n")
    env = dict(os.environ, CARC_ENGINE="compiled", CARC_ENGINE_BUILD=str(work))
    check = subprocess.run([sys.executable, "-c", SMOKE], cwd=ROOT, env=env, capture_output=True, text=True)
    if check.returncode != 0 or check.stdout.split() != ["compiled", "True"]:
        last = (check.stderr.strip().splitlines() or ["no output"])[-1]
        raise BuildFailed(f"the build does not load ({last[:160]}); it is left in {work}")
    old = dest.with_name(dest.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if dest.exists():
        dest.rename(old)
    work.rename(dest)
    shutil.rmtree(old, ignore_errors=True)
    return f"compiled {count} modules of engine/ into {dest} in {time.perf_counter() - started:.0f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compile the engine with mypyc (optional).")
    parser.add_argument("--check", action="store_true", help="say which engine runs here (exit 0: compiled)")
    parser.add_argument("--clean", action="store_true", help="remove the build")
    parser.add_argument("--force", action="store_true", help="build even if the build is of these sources")
    parser.add_argument("--out", type=Path, default=None, help="build here instead of .compiled/")
    args = parser.parse_args(argv)
    dest = (args.out or _compiled.build_dir()).resolve()
    if args.check:
        if os.environ.get("CARC_ENGINE", "").strip().lower() == "python":
            print("the Python engine runs: CARC_ENGINE=python")
            return 1
        fresh, why = _compiled.usable(dest)
        print(f"{'the compiled engine runs' if fresh else 'the Python engine runs'}: {why}")
        return 0 if fresh else 1
    if args.clean:
        shutil.rmtree(dest, ignore_errors=True)
        print(f"removed {dest}: the Python engine runs")
        return 0
    fresh, _why = _compiled.usable(dest)
    if fresh and not args.force:
        print(f"the compiled engine in {dest} is of these sources already (--force builds it again)")
        return 0
    try:
        print(build(dest))
    except (BuildFailed, OSError) as exc:
        print(f"compile_engine: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
