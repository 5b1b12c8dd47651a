"""Known Citadels positions for rule tests, built through `state_from_observation`.

`position(...)` writes the acting player's observation from a few keyword
arguments. Its own hand, every city, the gold and the top of the deck are
exact; the other districts go, at random, to the unknown hand cards
(`hand_sizes`) and the rest of the deck. The draft is the one the observer saw
as the first picker of a 4-7 player round, unless `shown` says otherwise.
"""

from __future__ import annotations

from typing import Any

from engine.citadels import (
    CitadelsState,
    Decision,
    Draft,
    Observation,
    PlayerView,
    RulesConfig,
    state_from_observation,
)
from engine.citadels.cards import CHARACTERS, parse_district


def position(
    num_players: int = 4,
    *,
    me: int = 0,
    called: str = "warlord",
    picks: tuple[str, ...] | None = None,
    face_up: tuple[str, ...] | None = None,
    d0: str | None = None,
    shown: tuple[tuple[str, ...], ...] | None = None,
    revealed: dict[str, int] | None = None,
    killed: str | None = None,
    robbed: str | None = None,
    gold: list[int] | None = None,
    cities: dict[int, list[str]] | None = None,
    hands: dict[int, list[str]] | None = None,
    hand_sizes: dict[int, int] | None = None,
    deck_top: list[str] | None = None,
    round: int = 3,
    built_this_round: tuple[str, ...] = (),
    crown: int | None = None,
    first_complete: int | None = None,
    phase: str = "main",
    player: int | None = None,
    rules: RulesConfig | None = None,
    seed: int = 0,
    **decision: Any,
) -> CitadelsState:
    """A position where `me` plays `called` (after the draft, in its turn)."""
    picks = picks or (called,)
    n = num_players
    taken = {*picks, *(revealed or {}), killed, robbed}
    if face_up is None:
        others = [c for c in CHARACTERS if c not in taken and c != "king" and c != d0]
        face_up = tuple(others[: 6 - n]) if 4 <= n <= 6 else ()
    if shown is None:
        if d0 is None:
            d0 = next(c for c in reversed(CHARACTERS) if c not in taken and c not in face_up)
        shown = (tuple(c for c in CHARACTERS if c not in face_up and c != d0),)
    revealed = dict(revealed or {})
    if phase not in ("pick", "discard", "end") and n >= 4:
        # Others hold all but one of the characters the observer passed on; those
        # already called must have been revealed (one of them may be the discard).
        turn = CHARACTERS.index(called)
        passed = [c for c in shown[0] if c not in picks and c not in revealed]
        low = [c for c in passed if CHARACTERS.index(c) < turn and c != killed]
        others = [q for q in range(n) if q != me and q not in revealed.values()]
        revealed.update({c: q for q, c in zip(others, low[1:], strict=False)})
    if phase not in ("pick", "discard", "end"):
        revealed.setdefault(called, me)
    cities = cities or {}
    hands = hands or {}
    hand_sizes = hand_sizes or {}
    gold = gold or [2] * n
    deck_top = deck_top or []
    in_city = sum(len(c) for c in cities.values())
    in_hands = sum(hand_sizes.get(q, len(hands.get(q, []))) for q in range(n))
    drawn = decision.get("drawn", ())
    destroyed = decision.get("destroyed")
    deck_size = (
        68
        - in_city
        - in_hands
        - len(drawn)
        - decision.get("drawn_hidden", 0)
        - (1 if destroyed else 0)
    )
    players = []
    for q in range(n):
        city = tuple(cities.get(q, ()))
        players.append(
            PlayerView(
                gold=gold[q],
                hand_size=hand_sizes.get(q, len(hands.get(q, []))),
                hand=tuple(sorted(hands.get(q, []), key=parse_district)),
                seen_of_mine=(),
                city=city,
                built_rounds=tuple(round if d in built_this_round else 1 for d in city),
                characters=tuple(
                    sorted(picks if q == me else [c for c, h in revealed.items() if h == q],
                           key=CHARACTERS.index)
                ),
            )
        )  # fmt: skip
    steps = 6 if n <= 3 else n
    in_draft = phase in ("pick", "discard")
    obs = Observation(
        observer=me,
        num_players=n,
        rules=rules or RulesConfig(),
        round=round,
        crown=revealed.get("king", me) if crown is None else crown,
        first_picker=me,
        players=tuple(players),
        draft=Draft(
            step=decision.pop("step", steps if not in_draft else 0),
            face_up=tuple(sorted(face_up, key=CHARACTERS.index)),
            shown=shown,
            picks=picks,
            discards=decision.pop("discards", ()),
        ),
        revealed=tuple(
            sorted(((c, h) for c, h in revealed.items()), key=lambda x: CHARACTERS.index(x[0]))
        ),
        killed=killed,
        robbed=robbed,
        deck_size=deck_size,
        deck_known=tuple(sorted((deck_size - 1 - i, d) for i, d in enumerate(deck_top))),
        deck_public=(),
        first_complete=first_complete,
        decision=Decision(
            phase=phase,
            player=me if player is None else player,
            called=None if in_draft or phase == "end" else called,
            builds_left=decision.pop("builds_left", 3 if called == "architect" else 1),
            **decision,
        ),
    )
    return state_from_observation(obs, seed)


def play(state: CitadelsState, *moves: str) -> CitadelsState:
    """Apply moves written as text; return the state for chaining."""
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def legal_texts(state: CitadelsState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]
