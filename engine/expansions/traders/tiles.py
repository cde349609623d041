"""Traders & Builders: 24 tiles (TILES.md "traders"; JCloisterZone's TB/ tiles). A good (wine,
grain, cloth) is a mark of the city segment that shows it (``city{N,W} wine``)."""

BAND_CAP = "city{{E,W}} {good}; city{{S}}; field{{NNW,NNE}}->E; field{{}}->E,S"
CORNER_ROAD_CAP = "city{{N,W}} {good}; city{{S}}; road{{E}}; field{{ENE}}->N; field{{ESE}}->N,S"
BAND_ROAD = "city{{E,W}} {good}; road{{S}}; field{{NNW,NNE}}->E; field{{SSE}}->E; field{{SSW}}->E"
CORNER = "city{{N,W}} {good}; field{{ENE,ESE,SSE,SSW}}->N"

TILES = [
    ("traders.corner_grain", 1, "CFFC", CORNER.format(good="grain")),
    ("traders.corner_wine", 1, "CFFC", CORNER.format(good="wine")),
    ("traders.band_cap_cloth", 1, "FCCC", BAND_CAP.format(good="cloth")),
    ("traders.band_cap_wine", 1, "FCCC", BAND_CAP.format(good="wine")),
    ("traders.three_sides_grain", 1, "CCFC", "city{N,E,W} grain; field{SSE,SSW}->N"),
    ("traders.corner_caps_cloth", 1, "CCCC", "city{N,W} cloth; city{E}; city{S}; field{}->N,E,S"),
    (
        "traders.corner_roads_split_cloth",
        1,
        "CRRC",
        "city{N,W} cloth; road{E}; road{S}; field{ENE}->N; field{ESE}->N; field{SSE}->N; field{SSW}->N",
    ),
    (
        "traders.corner_roads_wine",
        1,
        "CRRC",
        "city{N,W} wine; road{E}; road{S}; field{ENE}->N; field{ESE,SSE}->N; field{SSW}->N; deco garden -",
    ),
    ("traders.corner_road_cap_cloth", 1, "CRCC", CORNER_ROAD_CAP.format(good="cloth")),
    ("traders.corner_road_cap_grain", 1, "CRCC", CORNER_ROAD_CAP.format(good="grain")),
    (
        "traders.corner_road_cloth",
        1,
        "CRFC",
        "city{N,W} cloth; road{E}; field{ENE}->N; field{ESE,SSE,SSW}->N; deco garden road{E}",
    ),
    (
        "traders.corner_road_split_wine",
        1,
        "CRFC",
        "city{N,W} wine; road{E}; field{ENE}->N; field{ESE}->N; field{SSE,SSW}->N",
    ),
    ("traders.three_sides_road_wine", 1, "CCRC", "city{N,E,W} wine; road{S}; field{SSE}->N; field{SSW}->N"),
    ("traders.two_corners_wine", 1, "CCCC", "city{N,W} wine; city{E,S}; field{}->N,S"),
    ("traders.band_wine", 1, "FCFC", "city{E,W} wine; field{NNW,NNE}->E; field{SSE,SSW}->E"),
    ("traders.cap_road", 1, "CRFF", "city{N}; road{E}; field{ENE}->N; field{ESE,SSE,SSW,WSW,WNW}->N"),
    ("traders.band_road_grain", 1, "FCRC", BAND_ROAD.format(good="grain")),
    ("traders.band_road_wine", 1, "FCRC", BAND_ROAD.format(good="wine")),
    (
        "traders.band_roads_wine",
        1,
        "RCRC",
        "city{E,W} wine; road{N}; road{S}; field{NNW}->E; field{NNE}->E; field{SSE}->E; field{SSW}->E",
    ),
    (
        "traders.cloister_junction",
        1,
        "FRRR",
        "cloister; road{E}; road{S}; road{W}; field{WNW,NNW,NNE,ENE}; field{ESE,SSE}; field{SSW,WSW}",
    ),
    (
        "traders.corner_road_s_grain",
        1,
        "CFRC",
        "city{N,W} grain; road{S}; field{SSW}->N; field{SSE,ESE,ENE}->N",
    ),
    (
        "traders.corner_road_s_split_grain",
        1,
        "CFRC",
        "city{N,W} grain; road{S}; field{SSW}->N; field{SSE}->N; field{ENE,ESE}->N",
    ),
    (
        "traders.cap_roads",
        1,
        "CFRR",
        "city{N}; road{W}; road{S}; field{WNW}->N; field{WSW,SSW}; field{ENE,ESE,SSE}->N",
    ),
    (
        "traders.bridge",
        1,
        "RRRR",
        "road{N,S}; road{W,E}; field{WNW,NNW}; field{NNE,ENE}; field{ESE,SSE}; field{SSW,WSW}",
    ),
]
