"""Citadels' reasons and beliefs for a hint (see `search.explain`): who probably holds each
character the asker cannot see, and the character it should fear most, both counted over
the worlds the search deals (weighed by its draft inference when the search infers)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from engine.citadels.cards import CHARACTERS
from engine.citadels.observation import Observation
from engine.citadels.state import CitadelsState
from engine.interface import State
from search.explain import Belief, Played, Reason

#: Beyond "expects": the character most likely held by another player that can take the
#: asker's turn, gold or districts; and the beliefs.
KINDS = ("fears",)
#: Characters that act on another player's character or city.
THREATS = ("assassin", "thief", "warlord")
#: The holder of a character no player holds (put aside face down, or not picked yet).
NOBODY = -1


def known(obs: Observation) -> set[str]:
    """The characters whose place the observer knows: its own picks and discards, the ones
    turned face up, and every character revealed this round."""
    seen = {*obs.draft.picks, *obs.draft.discards, *obs.draft.face_up}
    seen |= {character for character, _ in obs.revealed}
    for view in obs.players:
        seen |= set(view.characters)
    return seen


def checkpoint(before: State, now: State) -> bool:
    """Citadels' reasons read the worlds as dealt and the game's end: no position between."""
    return False


def beliefs(state: State, worlds: Sequence[State]) -> list[Belief]:
    """For each character the asker cannot place, the share of `worlds` where each other
    player holds it (`NOBODY`: no player does); each character's chances sum to 1."""
    asker = state.current_player
    hidden = [
        c for c in CHARACTERS if c not in known(cast("Observation", state.observation(asker)))
    ]
    counts: dict[tuple[str, int], int] = {}
    for world in worlds:
        holders = cast("CitadelsState", world).holders()
        for character in hidden:
            holder = holders[character]
            key = (character, NOBODY if holder is None else holder)
            counts[key] = counts.get(key, 0) + 1
    return [
        Belief(player, character, n / len(worlds))
        for (character, player), n in sorted(counts.items(), key=lambda kv: (
            CHARACTERS.index(kv[0][0]), -kv[1], kv[0][1]))
    ]  # fmt: skip


def reasons(state: State, played: Sequence[Played]) -> list[Reason]:
    """ "fears": of the threats the asker cannot place, the one most likely held by another
    player once the move is made, with its likeliest holder and that chance (none when no
    world gives a threat to another player)."""
    asker = state.current_player
    hidden = known(cast("Observation", state.observation(asker)))
    best: Reason | None = None
    for threat in THREATS:
        if threat in hidden:
            continue
        holders = [cast("CitadelsState", p.after).holders()[threat] for p in played]
        others = [h for h in holders if h is not None and h != asker]
        if not others:
            continue
        likeliest = max(set(others), key=lambda h: (others.count(h), -h))
        chance = len(others) / len(holders)
        if best is None or chance > best.value:
            best = Reason("fears", likeliest, threat, chance)
    return [] if best is None else [best]
