"""Tests of bench/: the measuring and fitting tools, run small."""
