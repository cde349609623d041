"""Printing benchmark figures as a table."""


def print_table(rows: list[tuple[str, str, str]]) -> None:
    """rows: (measure, figure, target)."""
    width = max(len(r[0]) for r in rows)
    figure = max(len(r[1]) for r in rows)
    print(f"{'measure':<{width}}  {'figure':>{figure}}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>{figure}}  {target}")
