"""What a feature's root keeps of its segments as features join (``engine.board``): the segment marks
counted (``Board.marks``) and a field's city nodes and completed cities (``Board.field_cities``,
``Board.field_done``). The board calls these wherever two roots join: in ``Board._merge`` and in the
placing loop, which inlines the rest of the join for speed."""

from __future__ import annotations


def add_marks(marks: dict[int, dict[str, int]], root: int, counted: dict[str, int]) -> None:
    """``counted`` added to the marks of the feature ``root``, in a new dict: the dicts are shared
    with the tiles and with clones, never changed."""
    have = marks.get(root)
    if have is None:
        marks[root] = counted
        return
    joined = dict(have)
    for mark, n in counted.items():
        joined[mark] = joined.get(mark, 0) + n
    marks[root] = joined


def join_marks(marks: dict[int, dict[str, int]], ra: int, rb: int) -> None:
    """The feature ``rb`` joined ``ra``: its marks are counted on ``ra``."""
    b = marks.pop(rb, None)
    if b is not None:
        add_marks(marks, ra, b)


def join_city_nodes(field_cities: dict[int, tuple[int, ...]], field_done: dict[int, int], ra: int, rb: int) -> None:
    """The feature ``rb`` joined ``ra``: their cached city nodes join, their completed cities are
    counted again when asked (see ``Board.field_cities`` and ``Board.field_done``)."""
    if field_done:
        field_done.pop(ra, None)
        field_done.pop(rb, None)
    b = field_cities.pop(rb, None)  # (no longer a root: never asked again)
    a = field_cities.get(ra)
    if a is not None and b is not None:
        field_cities[ra] = a + b if b else a
    else:
        field_cities.pop(ra, None)
