"""Colours and sizes of the board pictures, in one place (../shared/docs/ART.md)."""

FIELD = (110, 160, 60)  # darker than cities: apart by lightness too (ΔE >= 20 in every simulation)
ROAD = (241, 230, 200)
ROAD_EDGE = (107, 91, 62)
FIELD_ALT = (130, 180, 70)  # the other side of a road or river
FIELD_TUFT = (92, 140, 48)  # tufts of grass, a shade darker than the field under them
FIELD_ALT_TUFT = (110, 160, 56)
CITY = (220, 195, 160)
WALL = (122, 90, 46)
WALL_TOP = (158, 124, 74)  # the merlons on a wall's inner side
ROOF = (190, 92, 62)  # a city's rooftops, seen from above
ROOF_EDGE = (120, 52, 36)
PENNANT = (47, 93, 168)
CLOISTER_ROOF = (176, 58, 46)
CLOISTER_WALL = (245, 236, 214)
RIVER = (74, 155, 216)
RIVER_BANK = (176, 160, 110)  # a sandy bank either side of the water
RIPPLE = (178, 216, 242)
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

# Chosen so that any two stay >= 25 ΔE apart under normal vision and simulated
# deuteranopia, protanopia and tritanopia (tests/test_pictures.py); each also has a
# shape of its own (legend, followers) as a second cue.
PLAYERS = [
    (221, 51, 17),  # red
    (85, 17, 204),  # blue
    (238, 204, 17),  # yellow
    (85, 170, 119),  # green
    (26, 26, 26),  # black
    (245, 245, 245),  # white
]
PLAYER_NAMES = ["red", "blue", "yellow", "green", "black", "white"]
SHAPES = ["circle", "square", "triangle", "diamond", "cross", "star"]
TURN_MARK = (255, 212, 0)


def outline_for(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """White around dark figures, black around light ones."""
    r, g, b = colour
    return (255, 255, 255) if 0.299 * r + 0.587 * g + 0.114 * b < 110 else (0, 0, 0)
