"""The River (river1) and The River II (river2)."""

SPRING = "river{E}; field{*}"
LAKE = "river{W}; field{*}"
CITY_ROAD = "city{N}; river{W,E}; road{S}; field{WNW}->N; field{ENE}->N; field{ESE,SSE}; field{SSW,WSW}"
BRIDGE = "river{N,S}; road{W,E}; field{NNE,ENE}; field{ESE,SSE}; field{SSW,WSW}; field{WNW,NNW}"
CURVE = "river{W,S}; field{WNW,NNW,NNE,ENE,ESE,SSE}; field{WSW,SSW}"
CITY_CORNER = "city{N,W}; river{S,E}; field{ENE,SSW}->N; field{ESE,SSE}"
ROAD_CURVE = "road{N,E}; river{S,W}; field{NNE,ENE}; field{WNW,NNW,ESE,SSE}; field{WSW,SSW}"
STRAIGHT = "river{W,E}; field{WNW,NNW,NNE,ENE}; field{WSW,SSW,SSE,ESE}"

RIVER1 = [
    ("river1.spring", 1, "FIFF", SPRING),
    ("river1.lake", 1, "FFFI", LAKE),
    ("river1.cities", 1, "CICI", "city{N}; city{S}; river{W,E}; field{WNW,ENE}->N; field{WSW,ESE}->S"),
    ("river1.city_road", 1, "CIRI", CITY_ROAD),
    (
        "river1.cloister_road",
        1,
        "FIRI",
        "cloister; river{W,E}; road{S}; field{WNW,NNW,NNE,ENE}; field{ESE,SSE}; field{SSW,WSW}",
    ),
    ("river1.bridge", 1, "IRIR", BRIDGE),
    ("river1.straight", 2, "FIFI", STRAIGHT),
    ("river1.city_corner", 1, "CIIC", CITY_CORNER),
    ("river1.road_curve", 1, "RRII", ROAD_CURVE),
    ("river1.curve", 1, "FFII", CURVE),
    ("river1.curve_g", 1, "FFII", CURVE + "; deco garden -"),
]

RIVER2 = [
    ("river2.spring", 1, "FIFF", SPRING),
    (
        "river2.fork",
        1,
        "IIFI",
        "river{W}; river{N}; river{E}; field{WNW,NNW}; field{NNE,ENE}; field{ESE,SSE,SSW,WSW}",
    ),
    ("river2.volcano_lake", 1, "FFFI", LAKE),
    ("river2.city_end", 1, "FCFI", "river{W}; city{E}; field{WNW,NNW,NNE}->E; field{WSW,SSW,SSE}->E"),
    ("river2.city_bridge", 1, "ICIC", "river{N,S}; city{W,E}; field{NNE,SSE}->W; field{NNW,SSW}->W"),
    ("river2.cloister", 1, "FIFI", "cloister; " + STRAIGHT),
    # Its inn is a segment mark read by Inns & Cathedrals: without that set it changes nothing.
    ("river2.inn_bridge", 1, "IRIR", BRIDGE.replace("road{W,E}", "road{W,E} inn")),
    ("river2.city_road", 1, "CIRI", CITY_ROAD),
    ("river2.curve", 1, "FFII", CURVE),
    ("river2.city_corner", 1, "CIIC", "city{N,W} pennant; river{S,E}; field{ENE,SSW}->N; field{ESE,SSE}"),
    (
        "river2.pigsty_curve",
        1,
        "IFFI",
        # The pigsty (a stable, for the Tollkeepers: beside no road) is also a field mark read by
        # Traders & Builders: a pig for every player who scores that field.
        "river{W,N}; field{NNE,ENE,ESE,SSE,SSW,WSW} pigsty; field{WNW,NNW}; deco stable -",
    ),
    ("river2.road_curve", 1, "RRII", ROAD_CURVE),
]
