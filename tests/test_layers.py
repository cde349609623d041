"""The house's layers, read from the source: no import cycle at run time (imports under
TYPE_CHECKING or inside functions are not run at import), no import running back up the layers
(bot -> cogs/console -> service -> renderer/storage -> engine), and a pure engine."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "service", "storage", "cogs", "console", "renderer", "locales")
# What each layer may import from the project (besides itself).
MAY_IMPORT = {
    "engine": set(),
    "locales": {"engine"},
    "storage": {"engine", "locales"},
    "renderer": {"engine", "locales"},
    "service": {"engine", "locales", "storage", "renderer"},
    "console": {"engine", "locales", "storage", "renderer", "service"},
    "cogs": {"engine", "locales", "storage", "renderer", "service"},
}
ENGINE_MAY_NOT = ("discord", "asyncio", "sqlite3", "aiosqlite", "asyncpg", "PIL", "storage", "service")


def modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        if rel.parts[0] not in PACKAGES:
            continue
        name = ".".join(rel.with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def run_time_imports(name: str, path: Path, known: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """Every module name imported when ``name`` is imported (top level and class bodies);
    ``from package import submodule`` counts as importing the submodule (``known`` modules)."""
    found: set[str] = set()

    def walk(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                base = node.module
                if node.level:
                    base = ".".join(name.split(".")[: -node.level] + [node.module])
                for a in node.names:
                    found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base)
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    walk([n for n in inner if isinstance(n, ast.stmt)] + [
                        s for h in inner if isinstance(h, ast.ExceptHandler) for s in h.body
                    ])  # fmt: skip

    walk(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def test_no_import_cycle_at_run_time_and_no_import_up_the_layers():
    mods = modules()
    graph = {m: {i for i in run_time_imports(m, p, set(mods)) if i in mods and i != m} for m, p in mods.items()}
    upward = [
        (m, i) for m, deps in graph.items() for i in deps
        if i.split(".")[0] != m.split(".")[0] and i.split(".")[0] not in MAY_IMPORT[m.split(".")[0]]
    ]  # fmt: skip
    assert upward == []
    # Cycles: a depth-first search for a back edge.
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(m: str, path: list[str]) -> bool:
        state[m] = 1
        for i in sorted(graph[m]):
            if state.get(i) == 1:
                cycle.extend(path[path.index(i) :] + [m, i] if i in path else [m, i])
                return True
            if i not in state and visit(i, [*path, m]):
                return True
        state[m] = 2
        return False

    for m in sorted(graph):
        if m not in state and visit(m, []):
            break
    assert cycle == [], " -> ".join(cycle)


def test_the_engine_stays_pure():
    mods = modules()
    for name, path in mods.items():
        if name.split(".")[0] != "engine":
            continue
        imported = run_time_imports(name, path)
        lazily = {
            n.names[0].name if isinstance(n, ast.Import) else (n.module or "")
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, ast.Import | ast.ImportFrom)
        }  # fmt: skip
        bad = [i for i in imported | lazily if i.split(".")[0] in ENGINE_MAY_NOT]
        assert bad == [], (name, bad)
