"""Observations a Royal Cities game cannot go on from: refused before a state is built.

The builder's other checks make an observation consistent card by card; these make sure
play from it reaches the end. Each names the field and says why in a player's words.
"""

from __future__ import annotations

from collections import Counter

from engine.errors import InvalidObservationError
from engine.royal_cities.cards import COLOURS
from engine.royal_cities.core import TURN_LIMIT
from engine.royal_cities.observation import Observation

#: Decisions inside the Season's turns: the Season ends only when its last player purchases.
TURN_PHASES = frozenset(
    {"turn", "effect", "knight_destination", "purchase", "hero_keep", "solo_add"}
)
#: Decisions before the first turn of a Season: nobody has purchased yet.
UNPURCHASED_PHASES = frozenset({"pass", "first_build", "solo_own", "solo_regent", "solo_trim"})
#: Decisions taken secretly, player by player.
SECRET_PHASES = frozenset({"pass", "first_build", "construct"})
#: Cards drawn and not yet placed, by decision (any other decision has none).
DRAWN_BY_PHASE = {"hero_keep": (2, 2), "solo_add": (2, 2), "regent_white": (1, 1)}
#: The Astrologer draws up to three cards; other effects draw nothing to place.
ASTROLOGER = 6
#: Face-up cards of one colour beyond two come only from the first row of four (a card
#: added to row 3 or later whose colour shows twice starts a Revolt), so at most two.
MAX_MARKET_EXCESS = 2


#: Actions in one turn, at most. A (play a card): the play, then its effect: one target,
#: or the Knight's source and a white card's destination (2), or the Astrologer's two
#: builds and its stop (3): 4. Then B (purchase): the purchase, one buy per face-up card
#: (at most 16) and the stop: 18; or C (add): the add, the Hero's or the solo choice of the
#: card kept (1), then a Revolt's purchase (16 buys and the stop) or its effect (3): 19.
TURN_ACTIONS = 4 + 19
#: Actions in one Season construction per player: a card of each value in each City
#: (6 x 7) and the stop.
CONSTRUCTION_ACTIONS = 6 * 7 + 1
#: Solo, at a Season's end: the Royal Taxes' choices (3), the Regent's white cards drawn
#: in catch-up (each white one at most once: it stays in its City) (7), the Market trim
#: from 16 face-up cards to 4 (12).
SOLO_SEASON_END_ACTIONS = 3 + 7 + 12
#: Solo setup: two Regent draws that may be white (2), the own build, the Regent's card.
SOLO_SETUP_ACTIONS = 4


def max_game_length(num_players: int) -> int:
    """The most actions any game of `num_players` can take from the deal (from an
    observation, a rebuilt game counts its turns from zero: no more than this either).

    Every decision but the sequence of turns is finite by itself: a turn has at most
    TURN_ACTIONS, a Season's end at most CONSTRUCTION_ACTIONS per player (plus the solo
    steps), the setup 3 per player (two passes and a first build). Turns themselves can
    go on without end (Merchants taking Merchants back from a small Market), so the
    engine ends a game after TURN_LIMIT (1000) turns; the turns that end a Season (the
    last purchase) are not counted there, one per Season. Random games take a few
    hundred actions at most."""
    seasons = 3 if num_players == 4 else 4
    solo = num_players == 1
    setup = SOLO_SETUP_ACTIONS if solo else 3 * num_players
    season_end = CONSTRUCTION_ACTIONS * num_players + (SOLO_SEASON_END_ACTIONS if solo else 0)
    return setup + (TURN_LIMIT + seasons) * TURN_ACTIONS + seasons * season_end


def check_progress(obs: Observation) -> None:
    """Raise InvalidObservationError for an observation from which play could never end
    (or would corrupt the game): purchase marks that no Season end can follow, secret
    choices out of seat order, a pass without two cards, drawn cards that do not fit the
    decision, an impossible Market."""
    _check_purchased(obs)
    _check_secret_order(obs)
    _check_passing(obs)
    _check_drawn(obs)
    _check_market(obs)


def _check_purchased(obs: Observation) -> None:
    n = obs.num_players
    phase = obs.decision.phase
    marked = [q for q, view in enumerate(obs.players) if view.purchased]
    if phase in TURN_PHASES and len(marked) == n:
        # Name a mark other than the last purchaser's, whose own mark is consistent.
        q = next((q for q in marked if q != obs.last_purchaser), marked[0])
        raise InvalidObservationError(
            f"players[{q}].purchased",
            "every player has purchased, yet the Season's turns go on: the Season ends as "
            "soon as its last player purchases, so one player must not have purchased yet",
        )
    if phase == "purchase" and obs.decision.player in marked:
        raise InvalidObservationError(
            f"players[{obs.decision.player}].purchased",
            "the player purchasing now cannot have purchased already this Season",
        )
    unpurchased = phase in UNPURCHASED_PHASES or (
        phase == "regent_white" and obs.decision.resume == "setup"
    )
    if unpurchased and marked:
        raise InvalidObservationError(
            f"players[{marked[0]}].purchased",
            "nobody has purchased yet at this point ({phase}): the marks are cleared at the"
            " start of every Season",
            phase=phase,
        )


def _check_secret_order(obs: Observation) -> None:
    """Secret choices (passing, the first build, Season construction) are made in seat
    order from player 0: those before the chooser are done, the others are not."""
    d = obs.decision
    if d.phase not in SECRET_PHASES:
        return
    assert d.player is not None, "the builder refuses a decision without its player"
    for q, view in enumerate(obs.players):
        if view.committed != (q < d.player) and d.player == obs.observer:
            raise InvalidObservationError(  # "you", so that a translation agrees
                f"players[{q}].committed",
                "secret choices go in seat order from P1: while you choose, exactly the"
                " players before you have chosen",
            )
        if view.committed != (q < d.player):
            raise InvalidObservationError(
                f"players[{q}].committed",
                "secret choices go in seat order from P1: with {player} choosing, exactly the"
                " players before it have chosen",
                player=d.player,
            )
    if d.phase == "pass":
        p = obs.observer
        allowed = (2,) if p < d.player else (0, 1) if p == d.player else (0,)
        if len(d.passes) in allowed:
            return
        if p < d.player:
            raise InvalidObservationError(
                "decision.passes",
                "the observer has passed {count} cards, but it has made its choice: two",
                count=len(d.passes),
            )
        if p == d.player:
            raise InvalidObservationError(
                "decision.passes",
                "the observer has passed {count} cards, but it is choosing: fewer than two",
                count=len(d.passes),
            )
        raise InvalidObservationError(
            "decision.passes",
            "the observer has passed {count} cards, but it has not chosen yet: none",
            count=len(d.passes),
        )


def _check_passing(obs: Observation) -> None:
    if obs.decision.phase != "pass":
        return
    for q, view in enumerate(obs.players):
        if view.hand_size < 2:
            raise InvalidObservationError(
                f"players[{q}].hand_size",
                "every player passes two cards at the start, so each hand holds at least two",
            )


def _check_drawn(obs: Observation) -> None:
    d = obs.decision
    count = len(d.drawn) + d.drawn_hidden
    low, high = DRAWN_BY_PHASE.get(d.phase, (0, 0))
    if d.phase == "effect" and d.effect == ASTROLOGER:
        low, high = 1, 3
    if not low <= count <= high:
        if low == high:
            raise InvalidObservationError(
                "decision.drawn",
                "{count} drawn cards wait to be placed, but this decision ({phase}) has {expected}",
                count=count,
                phase=d.phase,
                expected=low,
            )
        raise InvalidObservationError(
            "decision.drawn",
            "{count} drawn cards wait to be placed, but this decision ({phase}) has {low} to"
            " {high}",
            count=count,
            phase=d.phase,
            low=low,
            high=high,
        )


def _check_market(obs: Observation) -> None:
    counts = Counter(name.split("-")[0] for name in obs.market)
    excess = sum(max(0, k - 2) for k in counts.values())
    if excess > MAX_MARKET_EXCESS:
        shown = ", ".join(f"{counts[c]} {c}" for c in COLOURS if counts[c] > 2)
        raise InvalidObservationError(
            "market",
            "holds {colours}: a colour shows more than twice only through the first four cards"
            " (a card added later whose colour shows twice starts a Revolt), so at most two"
            " cards in all go beyond two of a colour",
            colours=shown,
        )
