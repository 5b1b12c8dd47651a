"""bench/fit_evaluation: the fit of a game's evaluation and its held-out log loss."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from bench.fit_evaluation import L2, fit, grouped, log_loss, positions


def test_the_fit_beats_a_uniform_guess_with_weights_never_negative() -> None:
    data = positions("citadels", 4, 30, seed=1, rate=0.2, epsilon=0.2)
    weights, fitted, uniform = fit(data)
    assert (weights >= 0).all()
    assert fitted < uniform == pytest.approx(np.log(4))
    # The fitted loss is the mean log loss plus the L2 term.
    assert log_loss(weights, grouped(data))[0] + L2 * weights @ weights == pytest.approx(fitted)


def test_held_out_positions_are_measured_not_fitted() -> None:
    command = [sys.executable, "-m", "bench.fit_evaluation", "--game", "citadels"]
    options = ["--games", "20", "--players", "4", "--held-out", "0.25"]
    out = subprocess.run([*command, *options], capture_output=True, text=True, check=True).stdout
    fitted, held, weights = out.splitlines()
    n_fitted, n_held = int(fitted.split()[0]), int(held.split()[0])
    assert n_held == (n_fitted + n_held) // 4
    assert "held out; mean log loss" in held
    assert weights.startswith("[")
