"""Tests of what every game of engine/ promises, run over `engine.games()`."""
