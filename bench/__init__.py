"""Benchmarks that print figures: `regent bench engine`."""
