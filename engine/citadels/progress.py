"""Observations a Citadels game cannot go on from soundly: refused before a state is built.

Play always ends (every turn is finite and the engine ends a game after ROUND_LIMIT
rounds: see `max_game_length`), so what is refused here is what would break the rules on
the way: a robbery without the Thief, a Graveyard offer nobody could make.
"""

from __future__ import annotations

from engine.citadels.cards import CHARACTERS
from engine.citadels.core import ROUND_LIMIT
from engine.citadels.observation import Observation
from engine.errors import InvalidObservationError

#: Actions of the eight characters' turns in one round, at most. Every character: the
#: resource step and the choice of the card kept (2), one build, the Laboratory, the
#: Smithy, the end of the turn (4 more); the Architect builds 2 more; the King, Bishop,
#: Merchant and Warlord take income (4); the powers: the Assassin's kill and the Thief's
#: robbery (1 each), the Magician's cards put under the deck one by one (at most the 68
#: districts) and its draw (69), the Warlord's destruction and the Graveyard's offer (2).
#: A turn has no other action, and each of these is offered at most once per turn.
TURNS_ACTIONS = 8 * 6 + 2 + 4 + (1 + 1 + 69 + 2)


def draft_decisions(num_players: int) -> int:
    """Draft decisions in a round: 6 with 2-3 players (picks and face-down discards),
    else one pick per player."""
    return 6 if num_players <= 3 else num_players


def round_actions(num_players: int) -> int:
    """The most actions one round can take: its draft, then the characters' turns."""
    return draft_decisions(num_players) + TURNS_ACTIONS


def max_game_length(num_players: int, from_round: int = 1) -> int:
    """The most actions a game can take from the start of round `from_round`: the engine
    ends a game at the end of round ROUND_LIMIT (200) whatever happens, and a round
    takes at most `round_actions` actions. From a deal, 200 x (draft + 127): 26,200 with
    4 players to 26,800 with 7. (Random games take a few hundred.)"""
    return (ROUND_LIMIT - from_round + 1) * round_actions(num_players)


def check_progress(obs: Observation) -> None:
    """Raise InvalidObservationError for a position no play can lead to and that play
    from would corrupt: see `_check_powers` and `_check_graveyard`."""
    _check_powers(obs)
    _check_graveyard(obs)


def _check_powers(obs: Observation) -> None:
    """The Thief robs in its own turn, and the gold moves to it when the victim is
    revealed: a robbery needs the Thief revealed this round (a Thief nobody holds could
    not take the gold), and a victim the rules allow."""
    revealed = {name for name, _ in obs.revealed}
    if obs.killed == "assassin":
        raise InvalidObservationError("killed", "the Assassin cannot kill itself")
    if obs.robbed is not None:
        if "thief" not in revealed:
            raise InvalidObservationError(
                "robbed", "only the Thief robs, in its turn: it has not played this round"
            )
        if obs.robbed in CHARACTERS[:2] or obs.robbed == obs.killed:
            raise InvalidObservationError(
                "robbed", "the Thief may not rob the Assassin, itself, or the killed character"
            )


def _check_graveyard(obs: Observation) -> None:
    """The Graveyard's offer follows the Warlord's destruction; its owner, another
    player, pays 1 gold to take the district."""
    d = obs.decision
    if d.phase != "graveyard":
        return
    if d.called != "warlord":
        raise InvalidObservationError(
            "decision.called", "the Graveyard's offer comes in the Warlord's turn"
        )
    assert d.player is not None, "the builder refuses a decision without its player"
    owner = obs.players[d.player]
    if "graveyard" not in owner.city or d.player == d.warlord:
        raise InvalidObservationError(
            "decision.player", "the Graveyard's offer goes to its owner, who is not the Warlord"
        )
    if owner.gold < 1:
        raise InvalidObservationError(
            f"players[{d.player}].gold", "the Graveyard's owner needs 1 gold to be offered it"
        )
