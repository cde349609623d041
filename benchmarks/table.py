"""Printing benchmark figures as a table."""


def print_table(rows: list[tuple[str, str, str]]) -> None:
    """rows: (measure, figure, target)."""
    width = max(len(r[0]) for r in rows)
    figure = max(len(r[1]) for r in rows)
    print(f"{'measure':<{width}}  {'figure':>{figure}}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>{figure}}  {target}")


def print_grid(headers: list[str], rows: list[list[str]], labels: int = 2) -> None:
    """A table with named columns (the first ``labels`` left-aligned labels, figures right-aligned)."""
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    print("  ".join(f"{h:<{w}}" for h, w in zip(headers, widths, strict=True)))
    for row in rows:
        cells = [f"{c:<{w}}" if i < labels else f"{c:>{w}}" for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        print("  ".join(cells))
