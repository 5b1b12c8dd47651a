# The C interface every game core offers to search/: a table of noexcept nogil
# functions over an opaque state of `state_size` bytes (copied with memcpy).
from libc.stdint cimport int16_t, uint64_t

cdef enum:
    MAX_GAME_PLAYERS = 8
    MAX_GAME_ACTIONS = 256      # the most legal actions any state offers at once
    OBSERVED_HIDDEN = -1        # another player's secret choice is now made
    OBSERVED_NOTHING = -2       # a step inside another player's secret choice
    MAX_HISTORY = 1024          # the most actions `history` writes
    MAX_OWN_LABELS = 8          # own_label's labels past the actions: num_actions + 0 .. 7

ctypedef struct GameApi:
    size_t state_size
    int num_actions             # action ids are 0 .. num_actions - 1
    int (*num_players)(const void* s) noexcept nogil
    int (*current_player)(const void* s) noexcept nogil
    bint (*is_terminal)(const void* s) noexcept nogil
    # Writes the legal action ids in ascending order; returns how many.
    int (*legal_actions)(const void* s, int16_t* out) noexcept nogil
    void (*apply_action)(void* s, int action) noexcept nogil
    # 1 win, shared victory split, 0 loss, per player.
    void (*returns)(const void* s, double* out) noexcept nogil
    # Per player: own score minus the best other score, in points.
    void (*margins)(const void* s, double* out) noexcept nogil
    # Per player, the estimated share of the win in [0, 1] from the world as it
    # stands (it may read the whole state); the returns once the game is over.
    void (*evaluate)(const void* s, double* out) noexcept nogil
    # Deal again what `player` does not know (see each game's resample).
    void (*resample)(void* s, int player, uint64_t* rng) noexcept nogil
    # How `observer` sees `action` about to be applied: the action itself,
    # OBSERVED_HIDDEN or OBSERVED_NOTHING.
    int (*observed_action)(const void* s, int action, int observer) noexcept nogil
    # The game's hand-written policy; reads only what the player to move knows. By its
    # hand-set judgement, or (`playout`) by the playouts' weights at the game's player count.
    int (*heuristic_action)(const void* s, uint64_t* rng, bint playout) noexcept nogil
    # The label the acting player's own tree gives `action` below the search's root (NULL:
    # the action itself everywhere): `num_actions` + k (k < MAX_OWN_LABELS) names a move by
    # its rank among the legal ones where which moves are legal hangs on the player's own
    # hidden draw (e.g. keeping the better of two drawn cards), so that the worlds' draws
    # share one subtree rather than one each; distinct for distinct legal actions; reads only
    # what the player to move knows.
    int (*own_label)(const void* s, int action) noexcept nogil
    # Inference (all zero when the game has none): deals of what a player cannot see,
    # weighed by how likely they make the others' observed choices under a fitted model.
    size_t belief_size          # bytes of one deal
    # Whether the game has a model for this position (e.g. at its player count).
    bint (*belief_ready)(const void* s) noexcept nogil
    # Deal into `deal`, uniformly among what `player` holds possible at `root`, one deal;
    # its log likelihood, or -INFINITY when no deal is possible.
    double (*belief_deal)(const void* root, int player, void* deal, uint64_t* rng) noexcept nogil
    # Put a deal into a world that resample dealt for the same player from the same root
    # (`rng` for what the game deals again to fit it, e.g. the others' secret choices).
    void (*belief_put)(void* s, const void* deal, uint64_t* rng) noexcept nogil
    # The whole game from its deal (all NULL when the game offers no such search; see the
    # search's whole_game): into `out`, the start of the game at `s` before any action, with the
    # deal `s` has (rng NULL) or everything dealt again at random (what anyone holds or will see);
    # the actions played from that start to `s`, in order (at most MAX_HISTORY); and what
    # `player` holds privately at the start, as a number from 0 (equal for the deals it cannot
    # tell apart). The game's later public events (e.g. a card turned up) are in its action ids.
    void (*start)(const void* s, void* out, uint64_t* rng) noexcept nogil
    int (*history)(const void* s, int16_t* out) noexcept nogil
    int (*private_key)(const void* s, int player) noexcept nogil
