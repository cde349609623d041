"""Colours and sizes of the board pictures, in one place (../shared/docs/ART.md)."""

FIELD = (141, 191, 90)
ROAD = (241, 230, 200)
ROAD_EDGE = (107, 91, 62)
CITY = (201, 164, 105)
WALL = (122, 90, 46)
PENNANT = (47, 93, 168)
CLOISTER_ROOF = (176, 58, 46)
CLOISTER_WALL = (245, 236, 214)
RIVER = (74, 155, 216)
LAKE = (59, 134, 196)
JETTY = (122, 90, 46)
CASTLE = (140, 140, 140)
CASTLE_EDGE = (80, 80, 80)
PARCHMENT = (234, 219, 181)
CROWN = (212, 160, 23)
PIG = (244, 154, 193)
MARGIN_BG = (242, 243, 245)
MARGIN_TEXT = (43, 45, 49)
EMPTY_CELL = (226, 228, 232)
LAST_PLACED = (255, 212, 0)
LEGAL = (43, 45, 49)
VILLAGE = (214, 196, 160)
VILLAGE_ROOF = (150, 70, 50)
VOLCANO = (110, 60, 40)

# Okabe-Ito, colour-blind safe; always drawn with an outline.
PLAYERS = [
    (213, 94, 0),  # red
    (0, 114, 178),  # blue
    (240, 228, 66),  # yellow
    (0, 158, 115),  # green
    (26, 26, 26),  # black
    (204, 121, 167),  # pink
]


def outline_for(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """White around dark figures, black around light ones."""
    r, g, b = colour
    return (255, 255, 255) if 0.299 * r + 0.587 * g + 0.114 * b < 110 else (0, 0, 0)
