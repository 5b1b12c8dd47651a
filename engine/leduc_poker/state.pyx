"""The Python face of a Leduc poker hand: an OpenSpiel-style State over the C core.

Python only validates and converts here; every rule runs in `core`.
"""
from libc.stdint cimport int16_t, uint64_t

from engine.cstate cimport CState, api_playout
from engine.leduc_poker.api cimport lp_game_api
from engine.leduc_poker.core cimport (
    LP_COPIES, LP_MAX_MOVES, LP_PLAYERS, LP_RANKS, LPState, lp_apply, lp_board, lp_check, lp_deal,
    lp_init, lp_legal_actions, lp_phase, lp_scores, lp_showdown,
)
from engine.rng cimport rng_below, rng_seed

from engine.cstate import TERMINAL, seed64
from engine.errors import InvalidObservationError
from engine.leduc_poker.actions import action_to_string, string_to_action
from engine.leduc_poker.cards import CARDS, parse_card
from engine.leduc_poker.observation import Observation
from engine.leduc_poker.rules import RulesConfig

PHASES = ("open", "facing_bet", "end")


cdef class LeducPokerState(CState):
    """A Leduc poker hand in progress. Build one with `engine.new_game("leduc_poker", 2, ...)`."""

    def __cinit__(self):
        self.api = lp_game_api()
        self.ptr = &self.s

    def __init__(self, int num_players=2, seed=0, rules=None):
        if num_players != LP_PLAYERS:
            raise ValueError(f"Leduc poker is for 2 players, not {num_players}")
        if rules is None:
            rules = RulesConfig()
        if not isinstance(rules, RulesConfig):
            raise TypeError("rules must be a leduc_poker RulesConfig")
        self.rules = rules
        lp_init(&self.s, seed64(seed))

    # -- the game interface ------------------------------------------------

    @property
    def phase(self) -> str:
        """`open` (check or bet), `facing_bet` (fold, call or raise) or `end`."""
        return PHASES[lp_phase(&self.s)]

    @property
    def round(self) -> int:
        """The betting round: 0 before the public card is turned up, 1 after."""
        return self.s.round

    @property
    def max_game_length(self) -> int:
        """Check, bet, raise, call in each round: no hand takes more than eight actions."""
        return LP_MAX_MOVES

    def cards_built(self, int player) -> int:
        """Nothing is built in poker: no tie-break beyond the chips."""
        self._check_player(player)
        return 0

    def scores(self) -> list[int]:
        """Chips won per player: the loser's stake to the winner, 0 to the loser (0 to both
        at a split pot and before the end)."""
        cdef int out[LP_PLAYERS]
        lp_scores(&self.s, out)
        return [out[0], out[1]]

    def action_to_string(self, action: int) -> str:
        return action_to_string(action)

    def _parse_action(self, text):
        return string_to_action(text, lp_board(&self.s))

    def check(self) -> None:
        """Raise AssertionError if the core's invariants are broken (for tests)."""
        cdef int code = lp_check(&self.s)
        if code:
            raise AssertionError(f"Leduc poker state invariant {code} broken")

    def hands(self) -> tuple[str, str, str]:
        """The whole truth: both players' cards and the public card, turned up or not. For
        tests and referees, never for a player."""
        return CARDS[self.s.card[0]], CARDS[self.s.card[1]], CARDS[self.s.public_card]

    # -- observations --------------------------------------------------------

    def observation(self, int player) -> Observation:
        """Exactly what `player` knows now."""
        self._check_player(player)
        return Observation(
            observer=player,
            num_players=LP_PLAYERS,
            rules=self.rules,
            card=CARDS[self.s.card[player]],
            public=CARDS[self.s.public_card] if self.s.round == 1 else None,
            history=tuple(action_to_string(self.s.history[i]) for i in range(self.s.n_moves)),
            shown=CARDS[self.s.card[1 - player]] if lp_showdown(&self.s) else None,
        )


# -- rebuilding a hand from one player's observation ---------------------------

def _card(name, field):
    if not isinstance(name, str):
        raise InvalidObservationError(field, "must be a card name")
    try:
        return parse_card(name)
    except ValueError as err:
        raise InvalidObservationError(field, str(err)) from None


def state_from_observation(obs, seed=0, draws=()) -> LeducPokerState:
    """A hand that continues from `obs.observer`'s point of view: the other card, unless a
    showdown shows it, and the public card, until it is turned up, are dealt from `seed`
    uniformly among the cards the observer has not seen, or named by `draws` (the other card,
    then the public card). InvalidObservationError names the first field that is wrong."""
    if isinstance(obs, dict):
        obs = Observation.from_json(obs)
    if not isinstance(obs, Observation):
        raise InvalidObservationError(
            "observation", "must be a leduc_poker Observation or its JSON")
    if obs.num_players != LP_PLAYERS:
        raise InvalidObservationError("num_players", "Leduc poker is for 2 players")
    if not 0 <= obs.observer < LP_PLAYERS:
        raise InvalidObservationError("observer", "must be a player from 0 to 1")
    if not isinstance(obs.rules, RulesConfig):
        raise InvalidObservationError("rules", "must be a leduc_poker RulesConfig")
    if isinstance(draws, (str, bytes)) or len(draws) > 2:
        raise InvalidObservationError("draws", "names two cards at most: the other's, the public")
    cdef int p = obs.observer
    left = [LP_COPIES] * LP_RANKS
    named = {"card": _card(obs.card, "card")}
    seen = [("shown", obs.shown), ("public", obs.public)]
    for field, name in seen + [(f"draws[{i}]", name) for i, name in enumerate(draws)]:
        if name is not None or field.startswith("draws"):
            named[field] = _card(name, field)
    cards = {"mine": named["card"]}
    cards["other"] = _pick(named, "shown", "draws[0]")
    cards["public"] = _pick(named, "public", "draws[1]")
    cdef uint64_t rng[4]
    rng_seed(rng, seed64(seed))
    for role, field in (("mine", "card"), ("other", "draws[0]"), ("public", "draws[1]")):
        if cards[role] is not None:
            if left[cards[role]] == 0:
                raise InvalidObservationError(
                    field, f"the deck has {LP_COPIES} {CARDS[cards[role]]} only")
            left[cards[role]] -= 1
    for role in ("other", "public"):
        if cards[role] is None:
            cards[role] = _draw(left, rng)
    cdef LeducPokerState state = LeducPokerState.__new__(LeducPokerState)
    state.rules = obs.rules
    other = cards["other"]
    lp_deal(&state.s, cards["mine"] if p == 0 else other, other if p == 0 else cards["mine"],
            cards["public"])
    _replay(&state.s, obs.history)
    if (obs.public is not None) != (state.s.round == 1):
        raise InvalidObservationError("public", "the public card is up from round two on")
    if (obs.shown is not None) != lp_showdown(&state.s):
        raise InvalidObservationError("shown", "a showdown, and only a showdown, shows the "
                                      "other card")
    return state


def _pick(named, seen, drawn):
    """The card the observation shows (`seen`), else the one `draws` names (`drawn`): both
    must agree."""
    if seen in named and drawn in named and named[seen] != named[drawn]:
        raise InvalidObservationError(drawn, f"the card is known: {CARDS[named[seen]]}")
    return named.get(seen, named.get(drawn))


cdef int _draw(list left, uint64_t* rng):
    """A card drawn uniformly from those `left` (counts by rank), taken from them."""
    cdef int pick = rng_below(rng, sum(left)), rank
    for rank in range(LP_RANKS):
        if pick < left[rank]:
            left[rank] -= 1
            return rank
        pick -= left[rank]
    return LP_RANKS - 1


cdef _replay(LPState* s, history):
    cdef int16_t legal[3]
    cdef int n, i
    if len(history) > LP_MAX_MOVES:
        raise InvalidObservationError("history", f"a hand has {LP_MAX_MOVES} actions at most")
    for i, text in enumerate(history):
        field = f"history[{i}]"
        try:
            action = string_to_action(text, lp_board(s))
        except ValueError as err:
            raise InvalidObservationError(field, str(err)) from None
        n = lp_legal_actions(s, legal)
        if n == 0:
            raise InvalidObservationError(field, "the hand is over by then")
        if action not in [legal[k] for k in range(n)]:
            names = ", ".join(action_to_string(legal[k]) for k in range(n))
            raise InvalidObservationError(field, f"{text} is not legal then (one of {names})")
        lp_apply(s, action)


def play_random_games(int num_players, int games, seed, rules=None) -> int:
    """Deal and play `games` uniformly random hands entirely in C, without the GIL;
    return the number of actions played (for benchmarks)."""
    if num_players != LP_PLAYERS:
        raise ValueError(f"Leduc poker is for 2 players, not {num_players}")
    cdef LPState s
    cdef uint64_t rng[4]
    cdef uint64_t base = seed64(seed)
    cdef long total = 0
    cdef int g
    rng_seed(rng, base)
    with nogil:
        for g in range(games):
            lp_init(&s, base + <uint64_t>g)
            total += api_playout(lp_game_api(), &s, rng)
    return total
