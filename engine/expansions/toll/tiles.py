"""The Tollkeepers: ten tiles with villages and travellers (reconstructed)."""

from engine.tiledata.base import D_FEATURES, L_FEATURES, P_FEATURES, U_FEATURES, V_FEATURES, W_FEATURES

TILES = [
    (
        "toll.crossroads",
        1,
        "RRRR",
        "road{N}; road{E}; road{S}; road{W}; village; "
        "field{WNW,NNW}; field{NNE,ENE}; field{ESE,SSE}; field{SSW,WSW}; deco travellers road{N}",
    ),
    ("toll.junction", 2, "FRRR", W_FEATURES + "; deco travellers road{S}"),
    ("toll.city_junction", 1, "CRRR", L_FEATURES + "; deco travellers road{E}"),
    ("toll.straight", 1, "FRFR", U_FEATURES + "; deco travellers road{W,E}"),
    ("toll.curve", 1, "FFRR", V_FEATURES + "; deco travellers road{S,W}"),
    ("toll.city_straight", 1, "CRFR", D_FEATURES + "; deco travellers road{W,E}"),
    ("toll.city_curve", 1, "CRRC", P_FEATURES + "; deco travellers road{E,S}"),
    (
        "toll.village_straight",
        1,
        "FRFR",
        "road{W}; road{E}; village; field{WNW,NNW,NNE,ENE}; field{ESE,SSE,SSW,WSW}",
    ),
    (
        "toll.village_curve",
        1,
        "FFRR",
        "road{S}; road{W}; village; field{WNW,NNW,NNE,ENE,ESE,SSE}; field{SSW,WSW}",
    ),
]
