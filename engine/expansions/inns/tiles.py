"""Inns & Cathedrals: 18 tiles (TILES.md "inns"; JCloisterZone's IC/ tiles), with six inns and two
cathedrals as segment marks (``road{..} inn``, ``city{..} cathedral``)."""

TILES = [
    ("inns.cathedral", 2, "CCCC", "city{N,E,S,W} cathedral"),
    ("inns.four_cities", 1, "CCCC", "city{N}; city{E}; city{S}; city{W}; field{}->N,E,S,W; deco garden -"),
    ("inns.three_cities", 1, "CCFC", "city{N}; city{E}; city{W}; field{SSE,SSW}->N,E,W"),
    ("inns.cloister_road", 1, "FRFR", "cloister; road{W}; road{E}; field{WNW,NNW,NNE,ENE}; field{ESE,SSE,SSW,WSW}"),
    (
        "inns.cities_roads",
        1,
        "CRCR",
        "city{N}; city{S}; road{W}; road{E}; village; field{WNW}->N; field{ENE}->N; field{WSW}->S; field{ESE}->S",
    ),
    ("inns.corner_cap", 1, "CFCC", "city{N,W} pennant; city{S}; field{ENE,ESE}->N,S"),
    ("inns.split_field", 1, "CFFF", "city{N}; field{ENE,ESE}->N; field{SSE,SSW,WSW,WNW}->N"),
    ("inns.road_end", 1, "CFRF", "city{N}; road{S}; field{WNW,WSW,SSW}->N; field{ENE,ESE,SSE}->N"),
    ("inns.corner_road", 1, "CRFC", "city{N,W}; road{E}; field{ENE}->N; field{ESE,SSE,SSW}->N"),
    (
        "inns.city_two_roads",
        1,
        "RCRC",
        "city{E,W} pennant; road{N}; road{S}; field{NNW}->E; field{NNE}->E; field{SSE}->E; field{SSW}->E",
    ),
    ("inns.inn_corner", 1, "CFRC", "city{N,W}; road{S} inn; field{SSW}->N; field{SSE,ESE,ENE}->N"),
    ("inns.inn_city_curve", 1, "CFRR", "city{N}; road{S,W} inn; field{SSW,WSW}; field{WNW,ENE,ESE,SSE}->N"),
    ("inns.inn_corner_curve", 1, "CRRC", "city{N,W} pennant; road{E,S} inn; field{ESE,SSE}; field{SSW,ENE}->N"),
    (
        "inns.inn_junction",
        1,
        "FRRR",
        "road{E} inn; road{S}; road{W}; village; field{WNW,NNW,NNE,ENE}; field{ESE,SSE}; field{SSW,WSW}",
    ),
    (
        "inns.inn_straight",
        1,
        "FRFR",
        "road{W,E} inn; field{WNW,NNW,NNE,ENE}; field{ESE,SSE,SSW,WSW}; deco garden road{W,E}",
    ),
    ("inns.inn_curve", 1, "FFRR", "road{S,W} inn; field{WNW,NNW,NNE,ENE,ESE,SSE}; field{SSW,WSW}"),
    ("inns.two_curves", 1, "RRRR", "road{N,W}; road{S,E}; field{WNW,NNW}; field{ESE,SSE}; field{NNE,ENE,SSW,WSW}"),
]
