"""Speed and size figures, printed as tables: ``python -m benchmarks.<name>``."""
