"""The short rules players read with ``/carc rules``: the base game's section is ``service/rules.md``'s,
each expansion's is in its own package (``engine/expansions/<name>/rules.md``, one section per set it
serves), so a new set brings its rules with it. A translation lies beside the English
(``rules.<language>.md``, written from the French rule pages); a file not translated is read in English.

A section is a heading ``## <set> — <title>`` and its lines, shown as written.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.expansions import Expansion
from engine.expansions.registry import expansion_for
from engine.game import BASE_SET

BASE_RULES_FOLDER = Path(__file__).resolve().parent
RULES_FILE_NAME = "rules.md"


def package_folder(cls: type[Expansion]) -> Path | None:
    """The folder of the package an expansion class is defined in (where its rules lie), or None
    for a class defined in a plain module (a test's toy expansion carries no rules file)."""
    module = sys.modules.get(cls.__module__)
    if module is None or not hasattr(module, "__path__") or module.__file__ is None:
        return None
    return Path(module.__file__).parent


def rules_file(folder: Path, language: str) -> Path | None:
    """The rules file of a folder in ``language``, else its English one, else None."""
    # The language is one the bot speaks (locales.language_of); checked again since it names a file.
    translated = folder / f"rules.{language}.md"
    if language.isalpha() and translated.is_file():
        return translated
    english = folder / RULES_FILE_NAME
    return english if english.is_file() else None


def sections(text: str) -> dict[str, str]:
    """A rules file's sections by set: ``"## <set> — <title>"`` and its lines, stripped. Text before
    the first heading (a file's title) is no section."""
    out: dict[str, str] = {}
    for chunk in ("\n" + text).split("\n## ")[1:]:
        heading = chunk.split("\n", 1)[0]
        out.setdefault(heading.split(" ", 1)[0], "## " + chunk.strip())
    return out


def rules_section(set_name: str, language: str = "en") -> str | None:
    """The rules section of a set, in ``language`` if its file is translated, else in English; None
    for an unknown set or one whose expansion carries no rules."""
    if set_name == BASE_SET:
        folder: Path | None = BASE_RULES_FOLDER
    else:
        cls = expansion_for(set_name)
        folder = package_folder(cls) if cls is not None else None
    path = rules_file(folder, language) if folder is not None else None
    if path is None:
        return None
    return sections(path.read_text(encoding="utf-8")).get(set_name)
