"""The Python face of a Kuhn poker hand: an OpenSpiel-style State over the C core.

Python only validates and converts here; every rule runs in `core`.
"""
from libc.stdint cimport int16_t, uint64_t

from engine.cstate cimport CState, api_playout
from engine.kuhn_poker.api cimport kp_game_api
from engine.kuhn_poker.core cimport (
    KP_CARDS, KP_MAX_MOVES, KP_PLAYERS, KPState, kp_apply, kp_check, kp_deal, kp_init,
    kp_legal_actions, kp_phase, kp_scores, kp_showdown,
)
from engine.rng cimport rng_below, rng_seed

from engine.cstate import TERMINAL, seed64
from engine.errors import InvalidObservationError
from engine.kuhn_poker.actions import action_to_string, string_to_action
from engine.kuhn_poker.cards import CARDS, parse_card
from engine.kuhn_poker.observation import Observation
from engine.kuhn_poker.rules import RulesConfig

PHASES = ("open", "facing_bet", "end")
#: The longest hand: check, bet, call (or fold).
MAX_ACTIONS = 3


cdef class KuhnPokerState(CState):
    """A Kuhn poker hand in progress. Build one with `engine.new_game("kuhn_poker", 2, ...)`."""

    def __cinit__(self):
        self.api = kp_game_api()
        self.ptr = &self.s

    def __init__(self, int num_players=2, seed=0, rules=None):
        if num_players != KP_PLAYERS:
            raise ValueError(f"Kuhn poker is for 2 players, not {num_players}")
        if rules is None:
            rules = RulesConfig()
        if not isinstance(rules, RulesConfig):
            raise TypeError("rules must be a kuhn_poker RulesConfig")
        self.rules = rules
        kp_init(&self.s, seed64(seed))

    # -- the game interface ------------------------------------------------

    @property
    def phase(self) -> str:
        """`open` (check or bet), `facing_bet` (fold or call) or `end`."""
        return PHASES[kp_phase(&self.s)]

    @property
    def max_game_length(self) -> int:
        """Check, bet, then call or fold: no hand takes more than three actions."""
        return MAX_ACTIONS

    def cards_built(self, int player) -> int:
        """Nothing is built in poker: no tie-break beyond the chips."""
        self._check_player(player)
        return 0

    def scores(self) -> list[int]:
        """Chips won per player: the loser's stake to the winner, 0 to the loser
        (0 to both before the end)."""
        cdef int out[KP_PLAYERS]
        kp_scores(&self.s, out)
        return [out[0], out[1]]

    def action_to_string(self, action: int) -> str:
        return action_to_string(action)

    def _parse_action(self, text):
        return string_to_action(text)

    def check(self) -> None:
        """Raise AssertionError if the core's invariants are broken (for tests)."""
        cdef int code = kp_check(&self.s)
        if code:
            raise AssertionError(f"Kuhn poker state invariant {code} broken")

    def hands(self) -> tuple[str, str]:
        """The whole truth: both players' cards. For tests and referees, never for a player."""
        return CARDS[self.s.card[0]], CARDS[self.s.card[1]]

    # -- observations --------------------------------------------------------

    def observation(self, int player) -> Observation:
        """Exactly what `player` knows now."""
        self._check_player(player)
        return Observation(
            observer=player,
            num_players=KP_PLAYERS,
            rules=self.rules,
            card=CARDS[self.s.card[player]],
            history=tuple(action_to_string(self.s.history[i]) for i in range(self.s.n_moves)),
            shown=CARDS[self.s.card[1 - player]] if kp_showdown(&self.s) else None,
        )


# -- rebuilding a hand from one player's observation ---------------------------

def _card(name, field):
    if not isinstance(name, str):
        raise InvalidObservationError(field, "must be a card name")
    try:
        return parse_card(name)
    except ValueError as err:
        raise InvalidObservationError(field, str(err)) from None


def state_from_observation(obs, seed=0, draws=()) -> KuhnPokerState:
    """A hand that continues from `obs.observer`'s point of view: the other card, unless
    the observation shows it, is dealt from `seed` uniformly among the two the observer
    does not hold, or named by `draws` (at most one card). InvalidObservationError names
    the first field that is wrong."""
    if isinstance(obs, dict):
        obs = Observation.from_json(obs)
    if not isinstance(obs, Observation):
        raise InvalidObservationError(
            "observation", "must be a kuhn_poker Observation or its JSON")
    if obs.num_players != KP_PLAYERS:
        raise InvalidObservationError("num_players", "Kuhn poker is for 2 players")
    if not 0 <= obs.observer < KP_PLAYERS:
        raise InvalidObservationError("observer", "must be a player from 0 to 1")
    if not isinstance(obs.rules, RulesConfig):
        raise InvalidObservationError("rules", "must be a kuhn_poker RulesConfig")
    cdef int p = obs.observer
    cdef int mine = _card(obs.card, "card")
    cdef int other = _other_card(obs, mine, seed, draws)
    cdef KuhnPokerState state = KuhnPokerState.__new__(KuhnPokerState)
    state.rules = obs.rules
    kp_deal(&state.s, mine if p == 0 else other, other if p == 0 else mine)
    _replay(&state.s, obs.history)
    if obs.shown is not None and not kp_showdown(&state.s):
        raise InvalidObservationError("shown", "cards are shown only at a showdown")
    if obs.shown is None and kp_showdown(&state.s):
        raise InvalidObservationError("shown", "a showdown shows the other card")
    return state


def _other_card(obs, int mine, seed, draws):
    """The other player's card: shown, drawn, or dealt from `seed`."""
    if isinstance(draws, (str, bytes)) or len(draws) > 1:
        raise InvalidObservationError("draws", "names one card at most: the other player's")
    if obs.shown is not None:
        other = _card(obs.shown, "shown")
        if other == mine:
            raise InvalidObservationError("shown", f"the observer holds the {obs.card}")
        if draws and _card(draws[0], "draws[0]") != other:
            raise InvalidObservationError("draws[0]", f"the other card is shown: {obs.shown}")
        return other
    if draws:
        other = _card(draws[0], "draws[0]")
        if other == mine:
            raise InvalidObservationError("draws[0]", f"the observer holds the {obs.card}")
        return other
    cdef uint64_t rng[4]
    rng_seed(rng, seed64(seed))
    return (mine + 1 + rng_below(rng, KP_CARDS - 1)) % KP_CARDS


cdef _replay(KPState* s, history):
    cdef int16_t legal[2]
    cdef int n, i
    if len(history) > KP_MAX_MOVES:
        raise InvalidObservationError("history", f"a hand has {KP_MAX_MOVES} actions at most")
    for i, text in enumerate(history):
        field = f"history[{i}]"
        try:
            action = string_to_action(text)
        except ValueError as err:
            raise InvalidObservationError(field, str(err)) from None
        n = kp_legal_actions(s, legal)
        if n == 0:
            raise InvalidObservationError(field, "the hand is over by then")
        if action != legal[0] and action != legal[1]:
            raise InvalidObservationError(
                field, f"{text} is not legal then (one of {action_to_string(legal[0])}, "
                f"{action_to_string(legal[1])})")
        kp_apply(s, action)


def play_random_games(int num_players, int games, seed, rules=None) -> int:
    """Deal and play `games` uniformly random hands entirely in C, without the GIL;
    return the number of actions played (for benchmarks)."""
    if num_players != KP_PLAYERS:
        raise ValueError(f"Kuhn poker is for 2 players, not {num_players}")
    cdef KPState s
    cdef uint64_t rng[4]
    cdef uint64_t base = seed64(seed)
    cdef long total = 0
    cdef int g
    rng_seed(rng, base)
    with nogil:
        for g in range(games):
            kp_init(&s, base + <uint64_t>g)
            total += api_playout(kp_game_api(), &s, rng)
    return total
