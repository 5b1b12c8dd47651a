from libc.stdint cimport int16_t, int32_t, int64_t, uint32_t, uint64_t

from engine.game_api cimport MAX_GAME_PLAYERS, GameApi

cpdef enum Mode:
    MODE_MO = 0      # one tree per player, moves as each player observes them
    MODE_SO = 1      # one tree over the true moves, a new world every iteration
    MODE_PIMC = 2    # K fixed worlds, perfect-information UCT in each, votes merged

cpdef enum Selection:
    SEL_UCB = 0      # the most promising move by UCB
    SEL_SMOOTH = 1   # Smooth UCT: UCB's move, or one drawn from the node's average strategy
    SEL_REGRET = 2   # regret matching with exploration, and its average strategy

cdef enum:
    MAX_DEPTH = 1024
    MAX_WORLDS = 64
    STOP_CHECK_EVERY = 256        # playout steps between two looks at the cancel flag and clock
    MAX_SHOW = 64                 # the most moves `show` gives a share of the final phase

cdef struct Node:
    int32_t first_child
    int32_t next_sibling
    int32_t visits
    int32_t avail
    int32_t label                 # the action as the tree's owner observed it
    float win                     # the root player's game result alone
    float regret                  # SEL_REGRET: the acting player's regret for not having chosen this move
    float strategy                # SEL_SMOOTH, SEL_REGRET: this move's weight in its chooser's average strategy
    float reward[MAX_GAME_PLAYERS]

cdef struct SearchParams:
    int mode
    int64_t iterations            # 0: no limit (time is SearchRun's, in slices)
    double c
    double margin_weight
    double margin_scale
    double rank_weight            # the weight of the player's place on points in the reward
    int shape_others              # 0: the margin and the place shape the root player's reward alone
    int heuristic_playout
    double epsilon
    int worlds
    int64_t max_nodes
    int64_t max_steps             # actions one iteration may simulate before it is scored as it stands
    int64_t playout_depth         # playout actions past the tree before the game's evaluate scores it; 0: to the end
    int infer                     # deals of the hidden information weighed once a search; 0: none
    int selection                 # a Selection
    int whole_game                # MO-ISMCTS over the whole game from its deal (the game's start)
    double gamma                  # SEL_REGRET: the share of uniform exploration in each choice
    int show                      # the root's top moves the final phase visits least-visited first; 0: none
    double show_share             # the share of the budget (iterations and time) that phase takes
    int observer                  # the player searched for (the root player); -1: the one to move
    int merge_draws               # below the root, the acting tree labels moves by the game's own_label
    double bias                   # progressive bias: the heuristic's move expanded first, B / (visits + 1) added to its UCB

cdef struct Worker:
    const GameApi* api
    const void* root
    SearchParams params
    uint64_t rng[4]
    const int* cancel
    int root_player
    int num_players
    int num_trees
    Node* nodes
    int64_t n_nodes
    int64_t cap
    int32_t roots[MAX_WORLDS]
    char* scratch                 # the iteration's world
    char* worlds                  # PIMC's fixed worlds
    char* beliefs                 # the weighed deals (params.infer of the game's belief_size)
    double* belief_cdf            # their weights, cumulated
    int belief_n                  # deals drawn from (0: uniform dealing)
    bint beliefs_weighed          # for this root
    int32_t* child_at             # action -> child of the node being visited
    uint32_t* stamp_at            # valid where stamp_at[action] == stamp
    uint32_t stamp
    int32_t* target               # whole_game: the labels from the root player's tree root to
    int target_len                # the node of its information set at the search's root
    int32_t* offered              # SEL_REGRET: the children each choice of an iteration chose among
    int64_t iterations
    int64_t actions
    int64_t capped                # iterations whose playout hit max_steps
    double elapsed
    double deadline               # CLOCK_MONOTONIC time at which worker_run stops; 0: none
    bint stopped                  # the last iteration was abandoned (cancel flag or deadline)
    bint out_of_memory
    # `show`: the final phase, from iteration `final_from` (of this worker's budget; -1: none)
    # or the monotonic time `final_at` (0: none), whichever comes first; then the root's
    # `show_k` most visited moves at its start, `show_label`, are visited least-visited
    # first (`show_n`: their visits over the worker's root trees), the most visited staying
    # ahead. `show_count` is per action scratch for the phase's start.
    int64_t final_from
    double final_at
    bint in_final
    int show_k
    int32_t show_label[MAX_SHOW]
    int64_t show_n[MAX_SHOW]
    int64_t* show_count

cdef int worker_start(Worker* w) noexcept nogil
cdef void worker_run(Worker* w, double deadline) noexcept nogil
cdef void worker_free(Worker* w) noexcept nogil
