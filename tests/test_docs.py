"""The project's documents (docs/) say what the code does: the tile tables of TILES.md are the
catalog's own rows, its notation examples parse, RECORD.md's example replays, and the README
links every document and nothing outside the repository.

``python -m tests.test_docs`` prints the generated tables (paste them into docs/TILES.md after a
tile changed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.catalog import _ROWS
from engine.expansions.castles.tiles import LAYOUTS
from engine.expansions.wheel.tiles import ICON_TILES
from engine.replay import summary
from engine.tiles import parse_tile

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# one-cell tiles: their rows as they are
TABLE_SETS = ("base", "river1", "river2", "ferries", "toll", "inns", "traders")
BEGIN, END = "<!-- tables: python -m tests.test_docs -->", "<!-- end of tables -->"


def tile_tables() -> str:
    """The generated part of TILES.md: each one-cell set's rows, the castles' layouts, the wheel's icons."""
    out: list[str] = []
    for name in TABLE_SETS:
        rows = _ROWS[name]()
        out += [f"### {name} ({sum(row[1] for row in rows)} tiles)", "", "| id | n | NESW | features |",
                "|---|---|---|---|"]  # fmt: skip
        out += [f"| {tile_id} | {count} | {edges} | {features} |" for tile_id, count, edges, features in rows]
        out.append("")
    out += ["### castles (6 double tiles)", "", "| id | city | roads |", "|---|---|---|"]
    out += [f"| {tile_id} | {city} | {', '.join(roads)} |" for tile_id, (city, roads) in LAYOUTS.items()]
    out += ["", "### wheel: the tiles with an icon (pig steps)", ""]
    for steps in (1, 2, 3):
        ids = [row[0].removeprefix("wheel.").rsplit(".", 1)[0] for row in ICON_TILES if row[5] == steps]
        out.append(f"- {steps}: {', '.join(ids)}")
    return "\n".join(out) + "\n"


def test_the_tile_tables_are_the_catalogs_rows():
    text = (DOCS / "TILES.md").read_text()
    assert BEGIN in text and END in text
    generated = text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n") + "\n"
    assert generated == tile_tables(), "docs/TILES.md is out of date: python -m tests.test_docs"


def test_the_notation_examples_parse():
    text = (DOCS / "TILES.md").read_text()
    examples = re.findall(r"^    ([CRFI]{4}) +(.+)$", text, re.M)
    assert len(examples) >= 4
    for edges, features in examples:
        tile = parse_tile("doc.example", 1, edges, features)
        assert tile.segments, features


def test_the_record_example_replays():
    block = re.findall(r"```json\n(.*?)```", (DOCS / "RECORD.md").read_text(), re.S)[0]
    out, status = summary(json.loads(block))
    assert status == 0 and out["ok"] and out["turn"] == 3 and out["supply"] == {"Ann": 6, "Bob": 7}


def test_the_readme_links_every_document_and_nothing_outside_the_repository():
    readme = (ROOT / "README.md").read_text()
    assert "../shared" not in readme and "shared/docs" not in readme
    for name in ("ARCHITECTURE.md", "RECORD.md", "RULES.md", "TILES.md", "HOSTING.md"):
        assert f"docs/{name}" in readme, name
        assert (DOCS / name).exists(), name
    for document in [ROOT / "README.md", *DOCS.glob("*.md")]:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", document.read_text()):
            if "://" not in target and not target.startswith("docs/EXPANSIONS.md"):
                assert (document.parent / target).exists(), f"{document.name} links {target}"
        assert "../shared" not in document.read_text(), document.name


if __name__ == "__main__":
    print(BEGIN + "\n" + tile_tables() + END)
