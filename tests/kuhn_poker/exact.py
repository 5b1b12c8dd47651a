"""Kuhn poker solved by enumeration, for tests: the six deals, the twelve information
sets, behaviour strategies, expected chips, best responses and exploitability, and the
game as ISMCTS models it (the root player's card known to both players).

A strategy maps every information set `(player, own card, betting so far)` to its
action probabilities by action text; values are chips won by the player named."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from engine.kuhn_poker import KuhnPokerState, Observation, RulesConfig, state_from_observation
from engine.kuhn_poker.cards import CARDS

Infoset = tuple[int, str, tuple[str, ...]]
Strategy = Mapping[Infoset, Mapping[str, float]]

DEALS = tuple((a, b) for a in CARDS for b in CARDS if a != b)
#: The first player's value of the game, in chips (Kuhn 1950).
GAME_VALUE = Fraction(-1, 18)


def deal(cards: tuple[str, str], history: tuple[str, ...] = ()) -> KuhnPokerState:
    """A hand with these cards (player 0's first) after the actions `history` names."""
    obs = Observation(0, 2, RulesConfig(), cards[0], (), None)
    state = state_from_observation(obs, draws=(cards[1],))
    for text in history:
        state.apply_action(state.string_to_action(text))
    return state


def position(info: Infoset, other: str) -> KuhnPokerState:
    """The hand at information set `info` with `other` as the other player's card."""
    player, card, history = info
    return deal((card, other) if player == 0 else (other, card), history)


def infoset(state: KuhnPokerState) -> Infoset:
    """The information set of the player to act."""
    obs = state.observation(state.current_player)
    return obs.observer, obs.card, obs.history


def child(state: KuhnPokerState, action: int) -> KuhnPokerState:
    after = state.clone()
    after.apply_action(action)
    return after


def infosets() -> list[Infoset]:
    """Every information set of the game, by player, card and history."""
    found: set[Infoset] = set()

    def walk(state: KuhnPokerState) -> None:
        if not state.is_terminal():
            found.add(infoset(state))
            for action in state.legal_actions():
                walk(child(state, action))

    for cards in DEALS:
        walk(deal(cards))
    return sorted(found, key=lambda i: (i[0], len(i[2]), i[2], CARDS.index(i[1])))


def chips(state: KuhnPokerState, player: int, strategy: Strategy) -> float:
    """Expected chips for `player` from `state` with both players following `strategy`."""
    if state.is_terminal():
        return state.scores()[player] - state.scores()[1 - player]
    return sum(
        prob * chips(child(state, state.string_to_action(text)), player, strategy)
        for text, prob in strategy[infoset(state)].items()
    )


def expected_chips(strategy: Strategy, player: int = 0) -> float:
    """The value of `strategy` for `player`, over the six equally likely deals."""
    return sum(chips(deal(cards), player, strategy) for cards in DEALS) / len(DEALS)


@dataclass(frozen=True)
class BestResponse:
    """`player`'s best reply to a fixed strategy of the other player."""

    player: int
    #: Its expected chips over the deals.
    value: float
    #: Per information set the reply reaches with positive weight: each action's
    #: expected chips, given the set is reached (the other's cards weighted by its reach).
    action_values: Mapping[Infoset, Mapping[str, float]]
    #: The action the reply plays at each of those sets.
    choice: Mapping[Infoset, str]


def best_response(player: int, strategy: Strategy) -> BestResponse:
    """Enumerate `player`'s best reply to the other player's part of `strategy`
    (deepest information sets first, so each later choice is made when an earlier one
    needs it)."""
    reached: dict[Infoset, list[tuple[KuhnPokerState, float]]] = defaultdict(list)

    def collect(state: KuhnPokerState, weight: float) -> None:
        if state.is_terminal() or weight == 0:
            return
        info = infoset(state)
        if state.current_player == player:
            reached[info].append((state, weight))
            for action in state.legal_actions():
                collect(child(state, action), weight)
        else:
            for text, prob in strategy[info].items():
                collect(child(state, state.string_to_action(text)), weight * prob)

    for cards in DEALS:
        collect(deal(cards), 1 / len(DEALS))

    choice: dict[Infoset, str] = {}

    def value(state: KuhnPokerState) -> float:
        if state.is_terminal():
            return state.scores()[player] - state.scores()[1 - player]
        info = infoset(state)
        if state.current_player == player:
            return value(child(state, state.string_to_action(choice[info])))
        return sum(
            prob * value(child(state, state.string_to_action(text)))
            for text, prob in strategy[info].items()
            if prob > 0
        )

    action_values: dict[Infoset, dict[str, float]] = {}
    for info in sorted(reached, key=lambda i: -len(i[2])):
        total = sum(weight for _, weight in reached[info])
        first = reached[info][0][0]
        action_values[info] = {
            first.action_to_string(a): sum(w * value(child(s, a)) for s, w in reached[info]) / total
            for a in first.legal_actions()
        }
        choice[info] = max(action_values[info], key=action_values[info].__getitem__)
    root = sum(value(deal(cards)) for cards in DEALS) / len(DEALS)
    return BestResponse(player, root, action_values, choice)


def exploitability(strategy: Strategy) -> float:
    """How much a best reply gains against `strategy` on average over the two seats,
    beyond the game's value: 0 exactly for an equilibrium."""
    first = best_response(0, strategy).value - GAME_VALUE
    second = best_response(1, strategy).value + GAME_VALUE
    return float(first + second) / 2


def _mixed(probability: float, yes: str, no: str) -> dict[str, float]:
    return {yes: probability, no: 1 - probability}


def equilibrium(alpha: float = 1 / 3) -> dict[Infoset, dict[str, float]]:
    """Kuhn's family of equilibria: the first player bluffs with J with probability
    alpha in [0, 1/3], bets K three times as often, and calls with Q alpha + 1/3;
    the second player bluffs with J and calls with Q a third of the time."""
    s: dict[Infoset, dict[str, float]] = {}
    for card, bet, call in (("J", alpha, 0.0), ("Q", 0.0, alpha + 1 / 3), ("K", 3 * alpha, 1.0)):
        s[(0, card, ())] = _mixed(bet, "bet", "check")
        s[(0, card, ("check", "bet"))] = _mixed(call, "call", "fold")
    for card, bet, call in (("J", 1 / 3, 0.0), ("Q", 0.0, 1 / 3), ("K", 1.0, 1.0)):
        s[(1, card, ("check",))] = _mixed(bet, "bet", "check")
        s[(1, card, ("bet",))] = _mixed(call, "call", "fold")
    return s


def uniform() -> dict[Infoset, dict[str, float]]:
    """Every legal action equally likely."""
    out = {}
    for info in infosets():
        state = position(info, next(c for c in CARDS if c != info[1]))
        out[info] = {state.action_to_string(a): 0.5 for a in state.legal_actions()}
    return out


def heuristic() -> dict[Infoset, dict[str, float]]:
    """The game's C heuristic, written out: bet and call with K, check and fold with J,
    check with Q and call a bet with it half the time."""
    out = {}
    for info in infosets():
        _, card, history = info
        facing_bet = history[-1:] == ("bet",)
        if card == "K":
            out[info] = {"call": 1.0} if facing_bet else {"bet": 1.0}
        elif card == "J":
            out[info] = {"fold": 1.0} if facing_bet else {"check": 1.0}
        else:
            out[info] = {"call": 0.5, "fold": 0.5} if facing_bet else {"check": 1.0}
    return out


def fused_values(info: Infoset) -> dict[str, float]:
    """The root player's action values, in chips, in the game ISMCTS searches from
    `info`: every world deals the other card uniformly, and both players' trees are
    built from those worlds only, so both know the root player's card and neither
    knows the other card. That game has public information alone: its values are
    expectimax values (each player maximises its chips; the other card is averaged)."""
    root = info[0]
    others = [c for c in CARDS if c != info[1]]

    def value(worlds: list[KuhnPokerState]) -> float:
        if worlds[0].is_terminal():
            return sum(w.scores()[root] - w.scores()[1 - root] for w in worlds) / len(worlds)
        results = [value([child(w, a) for w in worlds]) for a in worlds[0].legal_actions()]
        return max(results) if worlds[0].current_player == root else min(results)

    worlds = [position(info, other) for other in others]
    return {
        worlds[0].action_to_string(a): value([child(w, a) for w in worlds])
        for a in worlds[0].legal_actions()
    }
