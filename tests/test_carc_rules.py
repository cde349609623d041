"""What /carc rules shows: the base game's section from service/rules.md, each expansion's from its
own package (engine/expansions/<name>/rules.md), in English and French, each headed with its set's
title as the lobby words it."""

from __future__ import annotations

import hashlib

import pytest

from engine.catalog import SET_TILES
from engine.expansions import Expansion
from engine.expansions.registry import expansion_for, register, set_title, unregister
from engine.expansions.sets import BUILT_IN
from engine.language import _, speaking
from locales import translations
from service.rules import package_folder, rules_section, sections

LANGUAGES = ("en", "fr")
# The sha256 of every set's section in both languages, as /carc rules showed them when every section
# still lay in service/rules.md and service/rules.fr.md (2026-11-27): moving the texts into the
# packages changed no word. A rules text edited on purpose changes it: put the printed digest here.
SECTIONS_DIGEST = "083c199e735e7dacd82fdd49139156e68270dc3d79aa78821c8865b4bc57d269"


def every_section_digest() -> str:
    digest = hashlib.sha256()
    for language in LANGUAGES:
        for set_name in SET_TILES:
            digest.update(f"{language}/{set_name}\n{rules_section(set_name, language)}\n".encode())
    return digest.hexdigest()


def test_every_section_reads_as_it_did_before_the_texts_moved_into_the_packages() -> None:
    assert list(SET_TILES)[:1] == ["base"] and set(SET_TILES) == {"base", *BUILT_IN}
    assert every_section_digest() == SECTIONS_DIGEST, every_section_digest()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("set_name", list(SET_TILES))
def test_each_set_has_its_section_headed_with_its_title(set_name: str, language: str) -> None:
    section = rules_section(set_name, language)
    assert section is not None
    heading, *lines = section.split("\n")
    with speaking(translations(language)):
        assert heading == f"## {set_name} — {_(set_title(set_name))}"
    assert lines and all(line.startswith("- ") for line in lines), section
    english = rules_section(set_name, "en")
    assert english is not None and len(english.split("\n")) == len(section.split("\n"))


@pytest.mark.parametrize("package", sorted({package for package, _cls, _rows in BUILT_IN.values()}))
def test_each_package_carries_the_sections_of_exactly_its_sets(package: str) -> None:
    served = [name for name, (p, _cls, _rows) in BUILT_IN.items() if p == package]
    cls = expansion_for(served[0])
    assert cls is not None
    folder = package_folder(cls)
    assert folder is not None and folder.name == package
    for file_name in ("rules.md", "rules.fr.md"):
        assert list(sections((folder / file_name).read_text(encoding="utf-8"))) == served, (package, file_name)


def test_a_language_without_translation_reads_english_and_an_unknown_set_has_no_rules() -> None:
    assert rules_section("castles", "de") == rules_section("castles", "en")
    assert rules_section("nope", "en") is None and rules_section("", "fr") is None


class Quiet(Expansion):
    """A toy expansion defined in a test module, not in a package of its own: no rules file."""

    name = "quiet"
    sets = ("quiet",)
    tile_rows = {"quiet": [("quiet.field", 1, "FFFF", "field{*}")]}


def test_an_expansion_outside_a_package_has_no_rules() -> None:
    register(Quiet)
    try:
        assert package_folder(Quiet) is None and rules_section("quiet", "en") is None
    finally:
        unregister(Quiet)
