"""A refusal's wording: its template filled in English, seats as P1..Pn, and a refusal
around another (`around`) keeping both templates worded from one set of parameters."""

from __future__ import annotations

from engine.errors import Wording, around, worded


def test_a_template_is_filled_with_its_parameters_seats_from_one() -> None:
    wording = worded("{player} cannot buy {card}", player=1, card="red-4")
    assert wording.params == {"player": "1", "card": "red-4"}
    assert str(wording) == "P2 cannot buy red-4"
    assert str(Wording("{missing} stays")) == "{missing} stays"


def test_a_refusal_around_another_words_both() -> None:
    inner = worded("{value} exceeds the server's limit of {limit}", value=9, limit=5)
    outer = around("{spec}'s {part}: {reason}", inner, spec="level:3", part="iterations")
    assert outer.params["reason"] == inner.template
    assert str(outer) == "level:3's iterations: 9 exceeds the server's limit of 5"
    # One level deep only: a {reason} inside the inner template stays as it is.
    assert str(around("{reason}", Wording("why: {reason}"))) == "why: {reason}"
