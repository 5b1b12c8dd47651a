"""The base class of every game's State: the parts of the game interface that
only need the game's C interface (GameApi), written once for all games.

A subclass holds its C struct, points `api` and `ptr` at its game in
`__cinit__`, and adds what is its own: observations, action texts, scores."""
from libc.stdint cimport int16_t, uint64_t
from libc.string cimport memcpy

from engine.game_api cimport MAX_GAME_ACTIONS, MAX_GAME_PLAYERS
from engine.rng cimport rng_below, rng_seed

from engine.errors import IllegalMoveError, wording_of

#: `current_player` once the game is over.
TERMINAL = -1


def seed64(seed) -> int:
    """A seed as the cores take it (any integer, reduced to 64 bits)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    return seed & 0xFFFFFFFFFFFFFFFF


cdef int api_playout(const GameApi* api, void* s, uint64_t* rng) noexcept nogil:
    """Play uniformly random legal actions to the end; return how many."""
    cdef int16_t buf[MAX_GAME_ACTIONS]
    cdef int n, steps = 0
    while not api.is_terminal(s):
        n = api.legal_actions(s, buf)
        api.apply_action(s, buf[rng_below(rng, n)])
        steps += 1
    return steps


cdef class CState:

    @property
    def num_players(self) -> int:
        return self.api.num_players(self.ptr)

    @property
    def current_player(self) -> int:
        """The player to decide, or TERMINAL (-1) when the game is over."""
        return self.api.current_player(self.ptr)

    def is_terminal(self) -> bool:
        return self.api.is_terminal(self.ptr)

    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted; empty when the game is over."""
        cdef int16_t buf[MAX_GAME_ACTIONS]
        if self.api.is_terminal(self.ptr):
            return []
        cdef int n = self.api.legal_actions(self.ptr, buf)
        return [buf[i] for i in range(n)]      # the cores list them in id order

    def apply_action(self, action) -> None:
        """Play an action id; IllegalMoveError (and no change) when it is not legal now."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalMoveError(
                "an action is an integer id, not {kind}", kind=type(action).__name__)
        if self.api.is_terminal(self.ptr):
            raise IllegalMoveError("the game is over")
        if action not in self.legal_actions():
            try:
                text = self.action_to_string(action)
            except ValueError:
                raise IllegalMoveError("action {action} is not legal now ({player} to move)",
                                       action=action, player=self.current_player) from None
            raise IllegalMoveError("{move} is not legal now ({player} to move)",
                                   move=text, player=self.current_player)
        self.api.apply_action(self.ptr, action)

    def observed_action(self, action: int, observer: int) -> int:
        """How `observer` sees `action` if it is played now: the action itself,
        -1 when it completes another player's secret choice, -2 for a step
        inside one (not seen at all), or a label the game gives to a hidden step."""
        self._check_player(observer)
        return self.api.observed_action(self.ptr, action, observer)

    def returns(self) -> list[float]:
        """Per player: 1 for a win, a shared win split equally, 0 for a loss.
        All zeros before the end."""
        cdef double out[MAX_GAME_PLAYERS]
        self.api.returns(self.ptr, out)
        return [out[i] for i in range(self.num_players)]

    def evaluate(self) -> list[float]:
        """Per player, the game's estimated share of the win from the position as it
        stands (the whole state, hidden cards included), in [0, 1]; the returns
        once the game is over. Truncated playouts are scored by it."""
        cdef double out[MAX_GAME_PLAYERS]
        self.api.evaluate(self.ptr, out)
        return [out[i] for i in range(self.num_players)]

    def string_to_action(self, text: str) -> int:
        """The id of an action text; IllegalMoveError when it names no action."""
        try:
            return self._parse_action(text)
        except ValueError as err:
            raise IllegalMoveError(wording_of(err)) from None

    def clone(self):
        cdef CState other = type(self).__new__(type(self))
        memcpy(other.ptr, self.ptr, self.api.state_size)
        other.rules = self.rules
        return other

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        return (_restore, (type(self), bytes((<char*>self.ptr)[:self.api.state_size]), self.rules))

    def resample(self, int player, seed):
        """A copy in which everything `player` does not know is dealt again at
        random among what is consistent with what it knows (see each game)."""
        self._check_player(player)
        cdef uint64_t rng[4]
        rng_seed(rng, seed64(seed))
        cdef CState other = self.clone()
        self.api.resample(other.ptr, player, rng)
        return other

    def playout(self, seed) -> int:
        """Play uniformly random moves to the end in C; return how many."""
        cdef uint64_t rng[4]
        cdef int n
        rng_seed(rng, seed64(seed))
        with nogil:
            n = api_playout(self.api, self.ptr, rng)
        return n

    def _check_player(self, player):
        if not 0 <= player < self.num_players:
            raise ValueError(f"no player {player} in a {self.num_players}-player game")


def _restore(cls, data, rules):
    cdef CState state = cls.__new__(cls)
    if len(data) != state.api.state_size:
        raise ValueError(f"not a {cls.__name__} of this build")
    memcpy(state.ptr, <const char*>data, state.api.state_size)
    state.rules = rules
    return state
