"""The Ferries: lake tiles whose road stubs end at jetties (no village)."""

TILES = [
    (
        "ferries.city3",
        3,
        "CRRR",
        "lake; city{N}; road{E}; road{S}; road{W}; field{WNW,ENE}->N; field{ESE,SSE}; field{SSW,WSW}",
    ),
    (
        "ferries.three",
        4,
        "FRRR",
        "lake; road{E}; road{S}; road{W}; field{WNW,NNW,NNE,ENE}; field{ESE,SSE}; field{SSW,WSW}",
    ),
    (
        "ferries.four",
        1,
        "RRRR",
        "lake; road{N}; road{E}; road{S}; road{W}; field{WNW,NNW}; field{NNE,ENE}; field{ESE,SSE}; field{SSW,WSW}",
    ),
]
