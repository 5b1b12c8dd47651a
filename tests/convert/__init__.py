"""Tests of convert/: the generic conversion of observations, then each game's converter."""
