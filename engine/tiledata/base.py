"""The base game: 72 tiles (third-edition mix with gardens); one plain D is the start tile."""

D_FEATURES = "city{N}; road{W,E}; field{WNW,ENE}->N; field{ESE,SSE,SSW,WSW}"
J_FEATURES = "city{N}; road{E,S}; field{ENE,SSW,WSW,WNW}->N; field{ESE,SSE}"
K_FEATURES = "city{N}; road{S,W}; field{WNW,ENE,ESE,SSE}->N; field{SSW,WSW}"
L_FEATURES = "city{N}; road{E}; road{S}; road{W}; village; field{WNW,ENE}->N; field{ESE,SSE}; field{SSW,WSW}"
M_FEATURES = "city{N,W} pennant; field{ENE,ESE,SSE,SSW}->N"
N_FEATURES = "city{N,W}; field{ENE,ESE,SSE,SSW}->N"
H_FEATURES = "city{N}; city{S}; field{ENE,ESE,WSW,WNW}->N,S"
I_FEATURES = "city{N}; city{W}; field{ENE,ESE,SSE,SSW}->N,W"
O_FEATURES = "city{N,W} pennant; road{E,S}; field{ENE,SSW}->N; field{ESE,SSE}"
P_FEATURES = "city{N,W}; road{E,S}; field{ENE,SSW}->N; field{ESE,SSE}"
R_FEATURES = "city{N,E,W}; field{SSE,SSW}->N"
S_FEATURES = "city{N,E,W} pennant; road{S}; field{SSE}->N; field{SSW}->N"
T_FEATURES = "city{N,E,W}; road{S}; field{SSE}->N; field{SSW}->N"
U_FEATURES = "road{W,E}; field{WNW,NNW,NNE,ENE}; field{ESE,SSE,SSW,WSW}"
V_FEATURES = "road{S,W}; field{WNW,NNW,NNE,ENE,ESE,SSE}; field{SSW,WSW}"
W_FEATURES = "road{E}; road{S}; road{W}; village; field{WNW,NNW,NNE,ENE}; field{ESE,SSE}; field{SSW,WSW}"
X_FEATURES = (
    "road{N}; road{E}; road{S}; road{W}; village; field{WNW,NNW}; field{NNE,ENE}; field{ESE,SSE}; field{SSW,WSW}"
)
E_FEATURES = "city{N}; field{ENE,ESE,SSE,SSW,WSW,WNW}->N"
F_FEATURES = "city{E,W} pennant; field{NNW,NNE}->E; field{SSE,SSW}->E"
G_FEATURES = "city{E,W}; field{NNW,NNE}->E; field{SSE,SSW}->E"

START = "base.D"

TILES = [
    ("base.A", 2, "FFRF", "cloister; road{S}; field{*}"),
    ("base.B", 4, "FFFF", "cloister; field{*}"),
    ("base.C", 1, "CCCC", "city{N,E,S,W} pennant"),
    ("base.D", 3, "CRFR", D_FEATURES),
    # The farmhouse stands in the south field, beside the road.
    ("base.D.farmhouse", 1, "CRFR", D_FEATURES + "; deco farmhouse road{W,E}"),
    ("base.E", 4, "CFFF", E_FEATURES),
    ("base.Eg", 1, "CFFF", E_FEATURES + "; deco garden -"),
    ("base.F", 2, "FCFC", F_FEATURES),
    ("base.G", 1, "FCFC", G_FEATURES),
    ("base.H", 2, "CFCF", H_FEATURES),
    ("base.Hg", 1, "CFCF", H_FEATURES + "; deco garden -"),
    ("base.I", 1, "CFFC", I_FEATURES),
    ("base.Ig", 1, "CFFC", I_FEATURES + "; deco garden -"),
    ("base.J", 2, "CRRF", J_FEATURES),
    ("base.J.farmhouse", 1, "CRRF", J_FEATURES + "; deco farmhouse road{E,S}"),
    ("base.K", 2, "CFRR", K_FEATURES),
    ("base.K.stable", 1, "CFRR", K_FEATURES + "; deco stable road{S,W}"),
    ("base.L", 2, "CRRR", L_FEATURES),
    ("base.L.highwayman", 1, "CRRR", L_FEATURES + "; deco highwayman road{S}"),
    ("base.M", 1, "CFFC", M_FEATURES),
    ("base.Mg", 1, "CFFC", M_FEATURES + "; deco garden -"),
    ("base.N", 2, "CFFC", N_FEATURES),
    ("base.Ng", 1, "CFFC", N_FEATURES + "; deco garden -"),
    ("base.O", 2, "CRRC", O_FEATURES),
    ("base.P", 3, "CRRC", P_FEATURES),
    ("base.Q", 1, "CCFC", "city{N,E,W} pennant; field{SSE,SSW}->N"),
    ("base.R", 2, "CCFC", R_FEATURES),
    ("base.Rg", 1, "CCFC", R_FEATURES + "; deco garden -"),
    ("base.S", 2, "CCRC", S_FEATURES),
    ("base.T", 1, "CCRC", T_FEATURES),
    ("base.U", 4, "FRFR", U_FEATURES),
    ("base.U.farmhouse", 2, "FRFR", U_FEATURES + "; deco farmhouse road{W,E}"),
    ("base.U.highwayman", 1, "FRFR", U_FEATURES + "; deco highwayman road{W,E}"),
    ("base.Ug", 1, "FRFR", U_FEATURES + "; deco garden road{W,E}"),
    ("base.V", 6, "FFRR", V_FEATURES),
    ("base.V.stable", 2, "FFRR", V_FEATURES + "; deco stable road{S,W}"),
    ("base.Vg", 1, "FFRR", V_FEATURES + "; deco garden road{S,W}"),
    ("base.W", 2, "FRRR", W_FEATURES),
    ("base.W.stable", 1, "FRRR", W_FEATURES + "; deco stable road{E}"),
    ("base.W.highwayman", 1, "FRRR", W_FEATURES + "; deco highwayman road{W}"),
    ("base.X", 1, "RRRR", X_FEATURES),
]
