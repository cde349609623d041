"""Colour-vision deficiency simulation and colour distance, to check the palette.

Machado, Oliveira & Fernandes (2009) matrices at severity 1.0, applied in linear
sRGB; distances are CIE76 ΔE in CIELAB (D65).
"""

from __future__ import annotations

RGB = tuple[int, int, int]

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal", *MACHADO)


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encode(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 255 * (c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(rgb: RGB, vision: str) -> tuple[float, float, float]:
    """How ``rgb`` looks under ``vision`` ("normal" or a key of MACHADO), as sRGB 0..255."""
    if vision == "normal":
        return float(rgb[0]), float(rgb[1]), float(rgb[2])
    lin = [_linear(c) for c in rgb]
    m = MACHADO[vision]
    return tuple(_encode(sum(m[i][j] * lin[j] for j in range(3))) for i in range(3))  # type: ignore[return-value]


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: RGB, b: RGB, vision: str = "normal") -> float:
    """CIE76 ΔE between two colours as seen under ``vision``."""
    la, lb = lab(simulate(a, vision)), lab(simulate(b, vision))
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5


def worst_delta_e(a: RGB, b: RGB) -> float:
    """The smallest ΔE between two colours over normal vision and the three simulations."""
    return min(delta_e(a, b, v) for v in VISIONS)
