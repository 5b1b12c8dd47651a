# Information Set MCTS over any game's GameApi, without the GIL.
#
# MO-ISMCTS (Cowling, Powley & Whitehouse 2012): each iteration deals a world
# consistent with the root player's information, then descends one tree per
# player together; a player's tree branches on moves as that player observes
# them, so another player's secret choice is a single branch. SO-ISMCTS keeps
# one tree over the true moves; PIMC searches K fixed worlds. Every node keeps
# a reward per player and each player maximizes its own (UCB with availability
# counts), or plays Smooth UCT (Heinrich & Silver 2015): UCB's move, or with a
# probability that grows with the node's visits a move drawn from the node's
# average strategy (the shares of UCB's choices there), whose play approaches an
# equilibrium where UCB's does not, or regret matching (Lisý et al. 2013 and 2014): a move
# drawn in proportion to its positive regret, mixed with uniform exploration, the regrets
# estimated from the rewards by importance sampling, whose average strategy approaches an
# equilibrium too. With whole_game, MO-ISMCTS searches the game
# from its deal: each world is a new deal of everything, each player's tree
# first branches on what that player holds, so its nodes are its information sets
# over the whole game, and the root's moves are read at the root player's own
# information set. Nodes live in one arena that grows by doubling, never per node.
from libc.math cimport INFINITY, exp, log, sqrt
from libc.stdint cimport int16_t, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

import threading
import time

from engine.cstate cimport CState
from engine.game_api cimport (
    MAX_GAME_ACTIONS, MAX_GAME_PLAYERS, MAX_HISTORY, MAX_OWN_LABELS, OBSERVED_HIDDEN, OBSERVED_NOTHING,
    GameApi,
)
from engine.rng cimport rng_below, rng_next, rng_seed

cdef enum:
    NO_NODE = -1
    CLOCK_EVERY = 8

# A shown win chance's next decision ranks its moves by how often each was chosen where
# available once a move was offered this many times; one offered fewer ranks after them by
# its visits (a move met a few times, as each is when first met, is no preference yet).
cdef int PICK_MIN = 20

# Smooth UCT's schedule (Heinrich & Silver 2015): at a node of n visits, UCB chooses with
# probability max(GAMMA, ETA / (1 + D * sqrt(n))), the average strategy (the shares of
# UCB's choices there) otherwise. Their ETA and GAMMA; D ten times theirs (0.001), which was
# the best of 0.001-0.05 on Leduc's exploitability at 50,000 iterations
# (bench/exploitability.py); GAMMA changes nothing there.
cdef double SMOOTH_ETA = 0.9
cdef double SMOOTH_GAMMA = 0.1
cdef double SMOOTH_D = 0.01


cdef double now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + t.tv_nsec * 1e-9


cdef int32_t new_node(Worker* w, int32_t label) noexcept nogil:
    """A fresh node from the arena, or NO_NODE when the arena is at its cap."""
    cdef int64_t cap
    cdef Node* grown
    if w.n_nodes == w.cap:
        cap = w.cap * 2
        if cap > w.params.max_nodes:
            cap = w.params.max_nodes
        if cap <= w.cap:
            w.out_of_memory = True
            return NO_NODE
        grown = <Node*>realloc(w.nodes, cap * sizeof(Node))
        if grown == NULL:
            w.out_of_memory = True
            return NO_NODE
        w.nodes = grown
        w.cap = cap
    cdef int32_t i = <int32_t>w.n_nodes
    w.n_nodes += 1
    memset(&w.nodes[i], 0, sizeof(Node))
    w.nodes[i].first_child = NO_NODE
    w.nodes[i].next_sibling = NO_NODE
    w.nodes[i].label = label
    return i


cdef int32_t find_child(const Worker* w, int32_t node, int32_t label) noexcept nogil:
    cdef int32_t c = w.nodes[node].first_child
    while c != NO_NODE:
        if w.nodes[c].label == label:
            return c
        c = w.nodes[c].next_sibling
    return NO_NODE


cdef int32_t add_child(Worker* w, int32_t node, int32_t label) noexcept nogil:
    cdef int32_t c = new_node(w, label)
    if c != NO_NODE:
        w.nodes[c].next_sibling = w.nodes[node].first_child
        w.nodes[node].first_child = c
    return c


cdef int32_t child_or_new(Worker* w, int32_t node, int32_t label) noexcept nogil:
    cdef int32_t c = find_child(w, node, label)
    return c if c != NO_NODE else add_child(w, node, label)


cdef void worker_reset_counts(Worker* w) noexcept nogil:
    """A new search's counters (its trees may be kept from the one before)."""
    w.iterations = 0
    w.actions = 0
    w.capped = 0
    w.elapsed = 0.0
    w.deadline = 0.0
    w.stopped = False
    w.out_of_memory = False
    w.in_final = False
    w.show_k = 0
    w.final_at = 0.0
    w.final_from = -1
    if w.params.show > 0 and w.params.iterations > 0:
        w.final_from = w.params.iterations - <int64_t>(w.params.iterations * w.params.show_share)


cdef int worker_start(Worker* w) noexcept nogil:
    """Allocate the arena and scratch worlds; 0 on success."""
    cdef int k, trees
    cdef size_t size = w.api.state_size
    w.num_players = w.api.num_players(w.root)
    w.root_player = w.params.observer if w.params.observer >= 0 else w.api.current_player(w.root)
    if w.params.mode == MODE_MO:
        w.num_trees = w.num_players
    elif w.params.mode == MODE_PIMC:
        w.num_trees = w.params.worlds
    else:
        w.num_trees = 1
    w.cap = 1024
    if w.params.iterations > 0 and w.params.iterations * 2 < w.params.max_nodes:
        w.cap = w.params.iterations * 2 + 64
    if w.cap > w.params.max_nodes:
        w.cap = w.params.max_nodes
    w.nodes = <Node*>malloc(w.cap * sizeof(Node))
    w.scratch = <char*>malloc(size)
    # Indexed by label: an action, or one of the game's own labels past them (own_label).
    w.child_at = <int32_t*>malloc((w.api.num_actions + MAX_OWN_LABELS) * sizeof(int32_t))
    w.stamp_at = <uint32_t*>calloc(w.api.num_actions + MAX_OWN_LABELS, sizeof(uint32_t))
    w.stamp = 0
    w.worlds = NULL
    if w.params.mode == MODE_PIMC:
        w.worlds = <char*>malloc(size * w.num_trees)
    w.beliefs = NULL
    w.belief_cdf = NULL
    w.belief_n = 0
    w.beliefs_weighed = False
    if w.params.infer > 0:
        w.beliefs = <char*>malloc(w.params.infer * w.api.belief_size)
        w.belief_cdf = <double*>malloc(w.params.infer * sizeof(double))
    w.target = NULL
    w.target_len = 0
    w.offered = NULL
    w.show_count = NULL
    if w.params.show > 0:
        w.show_count = <int64_t*>malloc(w.api.num_actions * sizeof(int64_t))
        if w.show_count == NULL:
            return -1
    if w.params.selection == SEL_REGRET:
        # Every choice of an iteration offers at most MAX_GAME_ACTIONS children.
        w.offered = <int32_t*>malloc(MAX_DEPTH * MAX_GAME_ACTIONS * sizeof(int32_t))
        if w.offered == NULL:
            return -1
    if w.nodes == NULL or w.scratch == NULL or w.child_at == NULL or w.stamp_at == NULL or (
            w.params.mode == MODE_PIMC and w.worlds == NULL) or (
            w.params.infer > 0 and (w.beliefs == NULL or w.belief_cdf == NULL)):
        return -1
    if w.params.whole_game and find_target(w) != 0:
        return -1
    w.n_nodes = 0
    for k in range(w.num_trees):
        w.roots[k] = new_node(w, -1)
        if w.params.mode == MODE_PIMC:
            memcpy(w.worlds + k * size, w.root, size)
            w.api.resample(w.worlds + k * size, w.root_player, w.rng)
    worker_reset_counts(w)
    return 0


cdef int find_target(Worker* w) noexcept nogil:
    """Whole game: the labels that lead from the root player's tree root to its information
    set at `w.root` (what it holds, then the moves since the start as it observed them), in
    `w.target`; 0 on success, -1 without memory."""
    cdef const GameApi* api = w.api
    cdef int16_t* moves = <int16_t*>malloc(MAX_HISTORY * sizeof(int16_t))
    cdef int n, i, label
    if moves == NULL:
        return -1
    n = api.history(w.root, moves)
    w.target = <int32_t*>malloc((n + 1) * sizeof(int32_t))
    if w.target == NULL:
        free(moves)
        return -1
    api.start(w.root, w.scratch, NULL)
    w.target[0] = api.private_key(w.scratch, w.root_player)
    w.target_len = 1
    for i in range(n):
        label = moves[i]
        if api.current_player(w.scratch) != w.root_player:
            label = api.observed_action(w.scratch, moves[i], w.root_player)
        if label != OBSERVED_NOTHING:
            w.target[w.target_len] = label
            w.target_len += 1
        api.apply_action(w.scratch, moves[i])
    free(moves)
    return 0


cdef int32_t target_node(const Worker* w) noexcept nogil:
    """Whole game: the root player's node at its information set now, or NO_NODE while no
    iteration has reached it."""
    cdef int32_t node = w.roots[w.root_player]
    cdef int k
    for k in range(w.target_len):
        node = find_child(w, node, w.target[k])
        if node == NO_NODE:
            break
    return node


cdef int worker_reroot(Worker* w, int action) noexcept nogil:
    """Keep, as the trees of the next search, what each tree holds below `action` (the
    root player's move from `w.root`, as the tree's owner observed it), copied into a
    compact arena; a tree without that branch starts empty. The caller then puts the
    position after the move in `w.root`. 0 on success, -1 without memory."""
    cdef int32_t start[MAX_WORLDS]
    cdef int32_t label, old, c, j, prev
    cdef int64_t i, count = 0
    cdef int t
    # The old roots are dropped, so the kept nodes and a new root per tree fit in `cap`.
    cdef Node* fresh = <Node*>malloc(w.cap * sizeof(Node))
    cdef int32_t* origin = <int32_t*>malloc(w.cap * sizeof(int32_t))
    if fresh == NULL or origin == NULL:
        free(fresh)
        free(origin)
        return -1
    for t in range(w.num_trees):
        label = action
        if w.params.mode == MODE_MO and t != w.root_player:
            label = w.api.observed_action(w.root, action, t)
        start[t] = w.roots[t] if label == OBSERVED_NOTHING else find_child(w, w.roots[t], label)
        # A root names its moves by their actions: a subtree whose next moves carry the
        # game's own labels (below a root they stood for moves by rank) is not kept.
        c = w.nodes[start[t]].first_child if start[t] != NO_NODE else NO_NODE
        while c != NO_NODE:
            if w.nodes[c].label >= w.api.num_actions:
                start[t] = NO_NODE
                break
            c = w.nodes[c].next_sibling
    # Breadth first: each tree's new root, then every copied node's children in order.
    for t in range(w.num_trees):
        origin[count] = start[t]
        if start[t] != NO_NODE:
            fresh[count] = w.nodes[start[t]]
        else:
            memset(&fresh[count], 0, sizeof(Node))
        fresh[count].label = -1
        fresh[count].first_child = NO_NODE
        fresh[count].next_sibling = NO_NODE
        w.roots[t] = <int32_t>count
        count += 1
    i = 0
    while i < count:
        old = origin[i]
        prev = NO_NODE
        c = w.nodes[old].first_child if old != NO_NODE else NO_NODE
        while c != NO_NODE:
            j = <int32_t>count
            count += 1
            fresh[j] = w.nodes[c]
            fresh[j].first_child = NO_NODE
            fresh[j].next_sibling = NO_NODE
            origin[j] = c
            if prev == NO_NODE:
                fresh[i].first_child = j
            else:
                fresh[prev].next_sibling = j
            prev = j
            c = w.nodes[c].next_sibling
        i += 1
    free(w.nodes)
    free(origin)
    w.nodes = fresh
    w.n_nodes = count
    w.belief_n = 0
    w.beliefs_weighed = False       # the new root's deals are weighed when it runs
    worker_reset_counts(w)
    return 0


cdef void worker_free(Worker* w) noexcept nogil:
    free(w.nodes)
    free(w.scratch)
    free(w.worlds)
    free(w.child_at)
    free(w.stamp_at)
    free(w.beliefs)
    free(w.belief_cdf)
    free(w.target)
    free(w.offered)
    free(w.show_count)
    w.target = NULL
    w.offered = NULL
    w.show_count = NULL
    w.beliefs = NULL
    w.belief_cdf = NULL
    w.nodes = NULL
    w.scratch = NULL
    w.worlds = NULL
    w.child_at = NULL
    w.stamp_at = NULL


cdef void index_children(Worker* w, int32_t node) noexcept nogil:
    """Make `child_of` answer for `node` in O(1) until the next call."""
    cdef int32_t c = w.nodes[node].first_child
    w.stamp += 1
    while c != NO_NODE:
        if w.nodes[c].label >= 0:
            w.child_at[w.nodes[c].label] = c
            w.stamp_at[w.nodes[c].label] = w.stamp
        c = w.nodes[c].next_sibling


cdef void weigh_beliefs(Worker* w) noexcept nogil:
    """Deal `params.infer` candidates of what the root player cannot see and weigh each by
    the game's model of the others' choices (sampling importance resampling: each world then
    draws one in proportion to its weight). Stops early at the cancel flag or the deadline,
    keeping the deals weighed so far, so the budget holds."""
    cdef size_t size = w.api.belief_size
    cdef double top = -INFINITY, total = 0.0, weight
    cdef int k, n = 0
    cdef int64_t t
    for k in range(w.params.infer):
        if k % CLOCK_EVERY == 0 and must_stop(w):
            break
        weight = w.api.belief_deal(w.root, w.root_player, w.beliefs + n * size, w.rng)
        if weight > -INFINITY:
            w.belief_cdf[n] = weight
            n += 1
            if weight > top:
                top = weight
    for k in range(n):
        total += exp(w.belief_cdf[k] - top)
        w.belief_cdf[k] = total
    w.belief_n = n
    w.beliefs_weighed = True
    if w.params.mode == MODE_PIMC and n > 0:
        for t in range(w.num_trees):
            draw_belief(w, w.worlds + t * w.api.state_size)


cdef void draw_belief(Worker* w, void* d) noexcept nogil:
    """Put into world `d` (resampled from the root) one weighed deal, drawn by weight."""
    cdef double u = (rng_next(w.rng) >> 11) * (1.0 / 9007199254740992.0) * w.belief_cdf[w.belief_n - 1]
    cdef int lo = 0, hi = w.belief_n - 1, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if w.belief_cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    w.api.belief_put(d, w.beliefs + lo * w.api.belief_size, w.rng)


cdef inline void deal_world(Worker* w, void* d) noexcept nogil:
    """Into `d`, a world dealt from the root for the root player (from the weighed deals when
    there are some)."""
    memcpy(d, w.root, w.api.state_size)
    w.api.resample(d, w.root_player, w.rng)
    if w.belief_n > 0:
        draw_belief(w, d)


cdef inline int32_t child_of(const Worker* w, int action) noexcept nogil:
    return w.child_at[action] if w.stamp_at[action] == w.stamp else NO_NODE


cdef inline int playout_action(const GameApi* api, const void* s, bint heuristic,
                               double epsilon, uint64_t* rng, int16_t* buf) noexcept nogil:
    """The playout policy: the heuristic (if on), a uniformly random move with probability
    `epsilon`."""
    cdef int n
    if heuristic and rng_below(rng, 1000000) >= epsilon * 1000000:
        return api.heuristic_action(s, rng, True)
    n = api.legal_actions(s, buf)
    return buf[rng_below(rng, n)]


cdef double ucb(const Worker* w, int32_t c, int player) noexcept nogil:
    cdef const Node* n = &w.nodes[c]
    return n.reward[player] / n.visits + w.params.c * sqrt(log(<double>n.avail) / n.visits)


cdef inline bint smooth_average(Worker* w, int32_t node) noexcept nogil:
    """Whether Smooth UCT plays the average strategy at `node` this time (else UCB)."""
    cdef double eta = SMOOTH_ETA / (1.0 + SMOOTH_D * sqrt(<double>w.nodes[node].visits))
    if eta < SMOOTH_GAMMA:
        eta = SMOOTH_GAMMA
    return (rng_next(w.rng) >> 11) * (1.0 / 9007199254740992.0) >= eta


cdef int32_t average_child(Worker* w, const int16_t* buf, int n, double total) noexcept nogil:
    """A child of the node `index_children` indexed, among the moves `buf[:n]`, drawn in
    proportion to its average strategy weight (`total` in all)."""
    cdef double pick = (rng_next(w.rng) >> 11) * (1.0 / 9007199254740992.0) * total
    cdef int32_t child, last = NO_NODE
    cdef int i
    for i in range(n):
        child = child_of(w, buf[i])
        if child == NO_NODE or w.nodes[child].strategy <= 0:
            continue
        last = child
        pick -= w.nodes[child].strategy
        if pick < 0:
            return child
    return last


cdef int regret_child(Worker* w, int32_t node, const int16_t* buf, int n, int start,
                      int32_t* chosen, double* share) noexcept nogil:
    """Regret matching at `node`, which `index_children` indexed: a child among the moves
    `buf[:n]`, drawn with probability (1 - gamma) * its share of the positive regrets (uniform
    when there are none) + gamma / k, into `chosen` with that probability in `share`. Each
    child's share of the positive regrets adds to its average strategy, weighed by the square
    of the node's visits (later strategies, which know more, count more). The k children offered go to
    `w.offered[start:start + k]`; returns k."""
    cdef double positive = 0.0, u, p
    cdef double gamma = w.params.gamma, weight = <double>w.nodes[node].visits * w.nodes[node].visits
    cdef int i, k = 0
    cdef int32_t child
    chosen[0] = NO_NODE
    for i in range(n):
        child = child_of(w, buf[i])
        if child == NO_NODE:
            continue
        w.offered[start + k] = child
        k += 1
        if w.nodes[child].regret > 0:
            positive += w.nodes[child].regret
    u = (rng_next(w.rng) >> 11) * (1.0 / 9007199254740992.0)
    for i in range(k):
        child = w.offered[start + i]
        if positive > 0:
            p = (w.nodes[child].regret if w.nodes[child].regret > 0 else 0.0) / positive
        else:
            p = 1.0 / k
        w.nodes[child].strategy += <float>(weight * p)
        p = (1.0 - gamma) * p + gamma / k
        if u >= 0:
            chosen[0] = child
            share[0] = p
            u -= p
    return k


cdef bint must_stop(const Worker* w) noexcept nogil:
    """The cancel flag is raised or the slice's deadline has passed."""
    return w.cancel[0] != 0 or (w.deadline > 0.0 and now() >= w.deadline)


cdef void score_unfinished(const Worker* w, const void* d, double* r) noexcept nogil:
    """The result of a playout stopped at max_steps, read from the position: the
    players ahead on points share the win (solo: ahead of the Regent wins, level
    is a tie)."""
    cdef double margin[MAX_GAME_PLAYERS]
    cdef double best = -1e300
    cdef int p, leaders = 0
    w.api.margins(d, margin)
    if w.num_players == 1:
        r[0] = 1.0 if margin[0] > 0 else (0.5 if margin[0] == 0 else 0.0)
        return
    for p in range(w.num_players):
        if margin[p] > best:
            best = margin[p]
    for p in range(w.num_players):
        if margin[p] == best:
            leaders += 1
    for p in range(w.num_players):
        r[p] = 1.0 / leaders if margin[p] == best else 0.0


cdef void shape_reward(const Worker* w, const void* d, double* r) noexcept nogil:
    """Blend each player's result with its margin term and its rank term:
    (1 - wm - wr) * result + wm * (1/2 + 1/2 * clamp(margin / scale, -1, 1))
    + wr * (the share of the others it is ahead of on points, a tie counting half); the root
    player's alone when `shape_others` is 0."""
    cdef double margin[MAX_GAME_PLAYERS]
    cdef double value, ahead
    cdef double wm = w.params.margin_weight, wr = w.params.rank_weight
    cdef int p, q
    w.api.margins(d, margin)
    for p in range(w.num_players):
        if p != w.root_player and not w.params.shape_others:
            continue
        value = margin[p] / w.params.margin_scale
        if value > 1.0:
            value = 1.0
        elif value < -1.0:
            value = -1.0
        if w.num_players > 1:
            ahead = 0.0
            for q in range(w.num_players):
                if q != p:
                    # A margin is the points over the best other, so margins sort as points do.
                    ahead += 1.0 if margin[q] < margin[p] else (0.5 if margin[q] == margin[p] else 0.0)
            ahead /= w.num_players - 1
        else:
            ahead = r[p]
        r[p] = (1.0 - wm - wr) * r[p] + wm * (0.5 + 0.5 * value) + wr * ahead


cdef void start_final(Worker* w) noexcept nogil:
    """`show`'s final phase begins: the root's `params.show` most visited moves over the
    worker's root trees (fewer when fewer were visited; ties to the lower action), most visited
    first, into `show_label` with their visits in `show_n`."""
    cdef int32_t c, label
    cdef int t, k, a, first = 0, last = w.num_trees
    cdef int64_t top
    if w.params.mode == MODE_MO:
        first = w.root_player
        last = first + 1
    memset(w.show_count, 0, w.api.num_actions * sizeof(int64_t))
    for t in range(first, last):
        c = w.nodes[w.roots[t]].first_child
        while c != NO_NODE:
            if w.nodes[c].label >= 0:
                w.show_count[w.nodes[c].label] += w.nodes[c].visits
            c = w.nodes[c].next_sibling
    w.show_k = 0
    for k in range(w.params.show):
        top = 0
        label = -1
        for a in range(w.api.num_actions):
            if w.show_count[a] > top:
                top = w.show_count[a]
                label = a
        if label < 0:
            break
        w.show_label[k] = label
        w.show_n[k] = top
        w.show_count[label] = 0
        w.show_k += 1
    w.in_final = True


cdef int final_pick(const Worker* w, const int16_t* buf, int n) noexcept nogil:
    """In the final phase, the root's move: the index in `show_label` of the least visited of
    those moves that are legal here (`buf[:n]`; ties to the more visited at the phase's
    start) and stay below the most visited one's visits, else the most visited (so it stays
    the move), or -1 when none is legal."""
    cdef int k, i, pick = -1
    cdef bint legal
    for k in range(w.show_k):
        legal = False
        for i in range(n):
            if buf[i] == w.show_label[k]:
                legal = True
                break
        if legal and (k == 0 or w.show_n[k] + 1 < w.show_n[0]) and (
                pick <= 0 or w.show_n[k] < w.show_n[pick]):
            pick = k
    return pick


cdef void iterate(Worker* w) noexcept nogil:
    cdef int16_t buf[MAX_GAME_ACTIONS]
    # The acting player's tree's labels of the moves in `buf` (`own_label` below the root).
    cdef int16_t own[MAX_GAME_ACTIONS]
    cdef int16_t* labels
    cdef int32_t cur[MAX_WORLDS]
    cdef int32_t path[MAX_DEPTH]
    cdef double r[MAX_GAME_PLAYERS]
    # SEL_REGRET: each choice's node player, chosen child and its probability, and where its
    # offered children start in `w.offered`.
    cdef int32_t chose[MAX_DEPTH]
    cdef int16_t chooser[MAX_DEPTH]
    cdef double chance[MAX_DEPTH]
    cdef double baseline[MAX_DEPTH]
    cdef int offered_at[MAX_DEPTH]
    cdef int choices = 0, offered = 0
    cdef bint regret = w.params.selection == SEL_REGRET
    cdef int32_t child, best_child, node
    cdef int depth = 0, n, i, j, t, tj, a, act, untried, pick, first, last, label, p, forced = -1
    cdef int hint   # `bias`: the label of the heuristic's move at this node, in this world
    cdef int64_t total
    cdef double best, value, weights
    cdef bint active[MAX_WORLDS]
    cdef bint expanded = False, capped = False, truncated = False
    cdef int64_t steps = 0, horizon
    cdef void* d = w.scratch
    cdef size_t size = w.api.state_size
    cdef const GameApi* api = w.api

    if w.params.mode == MODE_PIMC:
        first = <int>(w.iterations % w.num_trees)
        last = first + 1
        memcpy(d, w.worlds + first * size, size)
    else:
        first = 0
        last = w.num_trees
        if w.params.whole_game:
            api.start(w.root, d, w.rng)
        else:
            deal_world(w, d)
    for t in range(first, last):
        cur[t] = w.roots[t]
        active[t] = True
        path[depth] = cur[t]
        depth += 1
        if w.params.whole_game:
            # Each player's tree first branches on what it holds: its nodes are its
            # information sets.
            child = child_or_new(w, cur[t], api.private_key(d, t))
            if child == NO_NODE:
                active[t] = False
                continue
            cur[t] = child
            path[depth] = child
            depth += 1

    while not api.is_terminal(d) and not expanded and depth < MAX_DEPTH - MAX_WORLDS:
        j = api.current_player(d)
        tj = j if w.params.mode == MODE_MO else first
        if not active[tj]:
            break
        node = cur[tj]
        n = api.legal_actions(d, buf)
        labels = buf
        if w.params.merge_draws and api.own_label != NULL and steps > 0:
            for i in range(n):
                own[i] = <int16_t>api.own_label(d, buf[i])
            labels = own
        index_children(w, node)
        untried = 0
        for i in range(n):
            if child_of(w, labels[i]) == NO_NODE:
                untried += 1
        a = -1
        hint = -1
        if w.params.bias > 0.0 and api.heuristic_action != NULL and n > 1:
            act = api.heuristic_action(d, w.rng, True)
            for i in range(n):
                if buf[i] == act:
                    hint = labels[i]
                    break
        if steps == 0 and w.in_final:
            # `show`'s final phase: the root visits its top moves least-visited first.
            forced = final_pick(w, buf, n)
            if forced >= 0:
                a = w.show_label[forced]
        if a < 0 and untried > 0 and w.n_nodes + w.num_trees < w.params.max_nodes:
            if hint >= 0 and child_of(w, hint) == NO_NODE:
                a = hint  # `bias`: the heuristic's move is the first expanded
            else:
                pick = rng_below(w.rng, untried)
                for i in range(n):
                    if child_of(w, labels[i]) == NO_NODE:
                        if pick == 0:
                            a = labels[i]
                            break
                        pick -= 1
            expanded = True
        # Selection among the children available in this world (all of them
        # when fully expanded; the existing ones when the arena is full).
        best = -1e300
        best_child = NO_NODE
        total = 0
        weights = 0.0
        for i in range(n):
            child = child_of(w, labels[i])
            if child == NO_NODE:
                continue
            w.nodes[child].avail += 1
            if a < 0 and not regret:
                total += w.nodes[child].visits
                weights += w.nodes[child].strategy
                value = ucb(w, child, j)
                if labels[i] == hint:
                    value += w.params.bias / (w.nodes[child].visits + 1)
                if value > best:
                    best = value
                    best_child = child
        if a < 0 and regret:
            offered_at[choices] = offered
            offered += regret_child(w, node, labels, n, offered, &best_child, &chance[choices])
            chose[choices] = best_child
            chooser[choices] = j
            baseline[choices] = w.nodes[node].reward[j] / w.nodes[node].visits
            if best_child != NO_NODE:
                choices += 1
        if a < 0:
            if w.params.selection == SEL_SMOOTH and total > 0:
                # The average strategy counts UCB's choices alone (fictitious play averages
                # best replies): counting its own draws too only slows it down.
                if weights > 0 and smooth_average(w, node):
                    best_child = average_child(w, labels, n, weights)
                elif best_child != NO_NODE:
                    w.nodes[best_child].strategy += 1
            if best_child == NO_NODE:
                break
            a = w.nodes[best_child].label
        # The move behind the label; every tree descends with it as its owner observes it.
        act = a
        if labels != buf:
            for i in range(n):
                if labels[i] == a:
                    act = buf[i]
                    break
        for t in range(first, last):
            if not active[t]:
                continue
            label = a
            if w.params.mode == MODE_MO and t != tj:
                label = api.observed_action(d, act, t)
                if label == OBSERVED_NOTHING:
                    continue
            child = child_or_new(w, cur[t], label)
            if child == NO_NODE:
                active[t] = False
                continue
            cur[t] = child
            path[depth] = child
            depth += 1
        api.apply_action(d, act)
        w.actions += 1
        steps += 1

    # The playout runs to the end, or to its horizon: playout_depth actions past
    # the tree (scored by the game's evaluate) or max_steps in all (capped).
    horizon = w.params.max_steps
    if w.params.playout_depth > 0 and steps + w.params.playout_depth < horizon:
        horizon = steps + w.params.playout_depth
        truncated = True
    while not api.is_terminal(d):
        if steps >= horizon:
            capped = not truncated
            break
        if steps % STOP_CHECK_EVERY == STOP_CHECK_EVERY - 1 and must_stop(w):
            w.stopped = True
            return
        api.apply_action(d, playout_action(api, d, w.params.heuristic_playout,
                                           w.params.epsilon, w.rng, buf))
        w.actions += 1
        steps += 1

    if capped:
        w.capped += 1
        score_unfinished(w, d, r)
    elif truncated:
        api.evaluate(d, r)
    else:
        api.returns(d, r)
    cdef float win = <float>r[w.root_player]
    if w.params.margin_weight != 0.0 or w.params.rank_weight != 0.0:
        shape_reward(w, d, r)
    # Regret matching's estimate of each offered move's regret: the reward over its chance
    # for the move chosen, nothing for the others, less the reward; the reward is taken from
    # the node's mean before (a baseline, which leaves the estimate unbiased, less noisy).
    # Regrets are floored at 0 (regret matching+), which forgets early mistakes sooner.
    offered_at[choices] = offered
    for t in range(choices):
        value = r[chooser[t]] - baseline[t]
        w.nodes[chose[t]].regret += <float>(value / chance[t])
        for i in range(offered_at[t], offered_at[t + 1]):
            w.nodes[w.offered[i]].regret -= <float>value
            if w.nodes[w.offered[i]].regret < 0:
                w.nodes[w.offered[i]].regret = 0
    for i in range(depth):
        node = path[i]
        w.nodes[node].visits += 1
        w.nodes[node].win += win
        for p in range(w.num_players):
            w.nodes[node].reward[p] += <float>r[p]
    if forced >= 0:
        w.show_n[forced] += 1


cdef inline int64_t offered(const Worker* w, int32_t c, int64_t decisions) noexcept nogil:
    """Of the root player's `decisions` at its node, in how many child `c` was available:
    all for a move offered fewer than PICK_MIN times (too few to say) or always there. A move
    always there was still missed by the visits before it was tried, at most one a move (an
    untried move is tried at once), which `decisions` leaves out."""
    if w.nodes[c].avail < PICK_MIN or w.nodes[c].avail > decisions:
        return decisions
    return w.nodes[c].avail


cdef inline bint ranks_before(const Worker* w, int32_t a, int32_t b, int64_t decisions) noexcept nogil:
    """Whether the root player prefers child `a` to child `b` at its decision: a move offered
    PICK_MIN times or more before one offered fewer; between those, the one it chose more
    often where available (visits over `offered`, compared exactly, so that the order is a
    strict one: the more visited of two always there); then the more visited, then the
    earlier."""
    cdef bint ma = w.nodes[a].avail >= PICK_MIN, mb = w.nodes[b].avail >= PICK_MIN
    cdef int64_t ra, rb
    if ma != mb:
        return ma
    if ma:
        ra = <int64_t>w.nodes[a].visits * offered(w, b, decisions)
        rb = <int64_t>w.nodes[b].visits * offered(w, a, decisions)
        if ra != rb:
            return ra > rb
    return w.nodes[a].visits > w.nodes[b].visits or (
        w.nodes[a].visits == w.nodes[b].visits and a < b)


cdef double win_after(const Worker* w, int32_t node) noexcept nogil:
    """MO-ISMCTS, the root player's tree: the win sum of the iterations through `node` were
    each of the root player's next decisions below it worth the win chance of the move it
    prefers where that move could be played, else of the next it prefers, and so on, rather
    than the mean over every move it tried (`preferred_win`). Its own moves at a node are
    the children it was offered (only its own choices count availability); the others'
    moves there (a node where who acts hangs on the world) are followed down."""
    cdef int32_t c = w.nodes[node].first_child
    cdef int own = 0
    cdef int64_t own_visits = 0
    cdef double total = w.nodes[node].win, own_won = 0.0
    while c != NO_NODE:
        if w.nodes[c].avail > 0:
            own += 1
            own_visits += w.nodes[c].visits
            own_won += w.nodes[c].win
        c = w.nodes[c].next_sibling
    if own > 1:
        total += own_visits * preferred_win(w, node, own, own_visits, own_won) - own_won
    c = w.nodes[node].first_child
    while c != NO_NODE:
        if own <= 1 or w.nodes[c].avail == 0:
            total += win_after(w, c) - w.nodes[c].win
        c = w.nodes[c].next_sibling
    return total


cdef double preferred_win(const Worker* w, int32_t node, int own, int64_t own_visits,
                          double own_won) noexcept nogil:
    """The root player's win chance at its decision at `node` (its `own` moves there, chosen
    `own_visits` times and won `own_won` times): its preferred move's where that move was
    available, else the next preferred's, and so on (`ranks_before`; a move's availability
    is the share of the decisions it was `offered` in, taken as independent of the
    others'); the mean of its moves' where none it tried was. A decision reached in worlds
    that differ in what the player holds (a hidden draw) offers some moves only in some of
    them: their win chance is not the decision's, and the move always there is not the one
    preferred."""
    cdef int32_t c, best, last = NO_NODE
    cdef double left = 1.0, worth = 0.0, share
    cdef int64_t decisions = max(1, own_visits - own)
    cdef int taken = 0
    while left > 0.0 and taken < own:
        taken += 1
        best = NO_NODE
        c = w.nodes[node].first_child
        while c != NO_NODE:
            if w.nodes[c].avail > 0 and (
                    last == NO_NODE or ranks_before(w, last, c, decisions)) and (
                    best == NO_NODE or ranks_before(w, c, best, decisions)):
                best = c
            c = w.nodes[c].next_sibling
        if best == NO_NODE or w.nodes[best].visits == 0:
            break
        share = offered(w, best, decisions) / <double>decisions
        worth += left * share * (w.nodes[best].win / w.nodes[best].visits)
        left *= 1.0 - share
        last = best
    return worth + left * own_won / max(1, own_visits)


cdef void worker_run(Worker* w, double deadline) noexcept nogil:
    """Iterate until the monotonic time `deadline` (0: no limit), until the iteration
    budget is spent, or until the cancel flag is raised; a long playout looks at both
    every STOP_CHECK_EVERY steps and is abandoned when either holds. Can be called again
    to go on. The deadline is shared by every worker of a search, so a thread that
    starts late stops with the others rather than a budget later. With `show`, the final
    phase starts at its iteration or at the monotonic time `w.final_at`, whichever is first."""
    cdef double start = now(), clock
    cdef int64_t limit = w.params.iterations
    cdef int64_t done = 0
    w.deadline = deadline
    w.stopped = False
    if w.params.infer > 0 and not w.beliefs_weighed:
        weigh_beliefs(w)
    while True:
        if limit > 0 and w.iterations >= limit:
            break
        if w.cancel[0]:
            break
        clock = now() if done % CLOCK_EVERY == 0 and (deadline > 0.0 or w.final_at > 0.0) else 0.0
        if deadline > 0.0 and clock >= deadline:
            break
        if w.params.show > 0 and not w.in_final and (
                (w.final_from >= 0 and w.iterations >= w.final_from)
                or (w.final_at > 0.0 and clock >= w.final_at)):
            start_final(w)
        iterate(w)
        if w.stopped:
            break
        w.iterations += 1
        done += 1
    w.elapsed += now() - start


# --------------------------------------------------------------------------
# Python side: run workers on threads (each releases the GIL), merge the roots
# --------------------------------------------------------------------------

cdef class CancelToken:
    """Raise it from any thread: running searches stop within milliseconds and
    return their best so far."""

    cdef int flag

    def cancel(self) -> None:
        self.flag = 1

    @property
    def cancelled(self) -> bool:
        return self.flag != 0


cdef class _Job:
    """One worker: its own copy of the root, its own trees and random stream."""

    cdef Worker w
    cdef char* root
    cdef CancelToken token

    def __cinit__(self):
        self.root = NULL
        self.w.nodes = NULL
        self.w.scratch = NULL
        self.w.worlds = NULL
        self.w.beliefs = NULL
        self.w.belief_cdf = NULL
        self.w.child_at = NULL
        self.w.stamp_at = NULL
        self.w.target = NULL
        self.w.offered = NULL
        self.w.show_count = NULL

    def __dealloc__(self):
        worker_free(&self.w)
        free(self.root)

    cdef int setup(self, CState state, const SearchParams* params, uint64_t seed,
                   CancelToken token) except -1:
        cdef size_t size = state.api.state_size
        self.root = <char*>malloc(size)
        if self.root == NULL:
            raise MemoryError()
        memcpy(self.root, state.ptr, size)
        self.token = token
        self.w.api = state.api
        self.w.root = self.root
        self.w.cancel = &token.flag
        self.w.params = params[0]
        rng_seed(self.w.rng, seed)
        cdef int status
        with nogil:
            status = worker_start(&self.w)
        if status != 0:
            raise MemoryError("cannot allocate the search arena")
        return 0

    cdef int reroot(self, CState state, int action, const SearchParams* params, uint64_t seed,
                    CancelToken token) except -1:
        """Go on from `state`, the position after the root player's `action`, keeping the
        subtrees below it (MO-ISMCTS and SO-ISMCTS; PIMC's worlds cannot follow a move)."""
        cdef int status
        self.w.params = params[0]
        with nogil:
            status = worker_reroot(&self.w, action)
        if status != 0:
            raise MemoryError("cannot allocate the search arena")
        memcpy(self.root, state.ptr, state.api.state_size)
        self.token = token
        self.w.cancel = &token.flag
        rng_seed(self.w.rng, seed)
        return 0

    def run(self, double deadline, double final_at) -> None:
        """Iterate until the monotonic time `deadline` (0: no limit) or the budget; `show`'s
        final phase starts by the monotonic time `final_at` (0: by its iteration alone)."""
        self.w.final_at = final_at
        with nogil:
            worker_run(&self.w, deadline)

    cdef list root_trees(self):
        """The nodes whose children are the root player's moves at the root (none yet when
        no iteration of a whole-game search has reached its information set)."""
        cdef int32_t target
        if self.w.params.whole_game:
            target = target_node(&self.w)
            return [] if target == NO_NODE else [target]
        if self.w.params.mode == MODE_MO:
            return [self.w.roots[self.w.root_player]]
        if self.w.params.mode == MODE_PIMC:
            return [self.w.roots[k] for k in range(self.w.num_trees)]
        return [self.w.roots[0]]

    cdef dict root_stats(self):
        """action -> [visits, reward sum and win sum for the root player, availability,
        average strategy weight]; with `show`, MO-ISMCTS's win sums count the root player's
        next decision at the move it prefers where that move is there (`win_after`)."""
        cdef int32_t c
        cdef bint after = self.w.params.show > 0 and self.w.params.mode == MODE_MO
        out = {}
        for root in self.root_trees():
            c = self.w.nodes[<int32_t>root].first_child
            while c != NO_NODE:
                entry = out.setdefault(self.w.nodes[c].label, [0, 0.0, 0.0, 0, 0.0])
                entry[0] += self.w.nodes[c].visits
                entry[1] += self.w.nodes[c].reward[self.w.root_player]
                entry[2] += win_after(&self.w, c) if after else self.w.nodes[c].win
                entry[3] += self.w.nodes[c].avail
                entry[4] += self.w.nodes[c].strategy
                c = self.w.nodes[c].next_sibling
        return out

    cdef list principal_variation(self, int length, int first):
        """Labels along the most visited children of the (first) root tree, from the
        root's child labelled `first` (the move the search recommends)."""
        cdef int32_t node, c, best, label
        trees = self.root_trees()
        labels = []
        if not trees:
            return labels
        node = <int32_t>trees[0]
        while len(labels) < length:
            best = NO_NODE
            c = self.w.nodes[node].first_child
            while c != NO_NODE:
                if not labels and length > 0:
                    if self.w.nodes[c].label == first:
                        best = c
                elif best == NO_NODE or self.w.nodes[c].visits > self.w.nodes[best].visits:
                    best = c
                c = self.w.nodes[c].next_sibling
            if best == NO_NODE or self.w.nodes[best].visits == 0:
                break
            # A move named by its rank (the game's own_label) has no text: shown as hidden.
            label = self.w.nodes[best].label
            labels.append(OBSERVED_HIDDEN if label >= self.w.api.num_actions else label)
            node = best
        return labels


cdef SearchParams search_params(config) except *:
    """The C settings from a `search.search.SearchConfig` (already checked), field by field."""
    cdef SearchParams p
    p.mode = config.mode
    p.iterations = config.iterations
    p.c = config.c
    p.margin_weight = config.margin_weight
    p.rank_weight = config.rank_weight
    p.shape_others = config.shape_others
    p.margin_scale = config.margin_scale
    p.heuristic_playout = config.heuristic_playout
    p.epsilon = config.epsilon
    p.worlds = config.worlds
    p.max_nodes = config.max_nodes
    p.max_steps = config.max_steps
    p.playout_depth = config.playout_depth
    p.infer = config.infer
    p.selection = config.selection_mode
    p.whole_game = config.whole_game
    p.gamma = config.gamma
    p.show = config.show
    p.show_share = config.show_share
    p.merge_draws = config.merge_draws
    p.bias = config.bias
    p.observer = -1
    return p


cdef int check_params(CState state, const SearchParams* params) except -1:
    """ValueError when `infer` asks for a model of the others' choices the game has not, or
    `whole_game` for a search from the deal the game cannot start again."""
    if params.infer > 0 and (state.api.belief_ready == NULL or not state.api.belief_ready(state.ptr)):
        raise ValueError(f"infer: this game has no model of the players' choices at "
                         f"{state.api.num_players(state.ptr)} players; use infer=0")
    if params.whole_game and (state.api.start == NULL or state.api.history == NULL
                              or state.api.private_key == NULL):
        raise ValueError("whole_game: this game cannot be searched from its deal; use whole_game=0")
    return 0


cdef int check_observer(CState state, const SearchParams* params, int observer,
                        bint reused) except -1:
    """ValueError unless a search for `observer` (not necessarily the player to move) can
    run: a seat of the game, MO-ISMCTS (a tree of the player's own), from scratch, without
    `show` or `whole_game`, which read the root's moves as the player's own."""
    cdef int players = state.api.num_players(state.ptr)
    if not 0 <= observer < players:
        raise ValueError(f"observer must be a seat within [0, {players - 1}], got {observer}")
    if params.mode != MODE_MO:
        raise ValueError("observer: only MO-ISMCTS keeps a tree of one player's own")
    if params.show > 0 or params.whole_game or reused:
        raise ValueError("observer: a search for a player not to move has no moves of its own "
                         "at the root (no show, whole_game or tree reuse)")
    return 0


def check_config(CState state, config) -> None:
    """ValueError when `config` asks of the game at `state` what it has not (a model of the
    others' choices at its player count, for `infer`)."""
    cdef SearchParams params = search_params(config)
    check_params(state, &params)


def sample_worlds(CState state, config, int count) -> list:
    """`count` worlds dealt as a search with `config` deals them for the player to move, from
    its seed (with `infer`, each drawn from the deals weighed once): what tests check and a
    game's inference tool measures."""
    cdef SearchParams params = search_params(config)
    check_params(state, &params)
    cdef _Job job = _Job()
    job.setup(state, &params, <uint64_t>(config.seed & 0xFFFFFFFFFFFFFFFF), CancelToken())
    cdef Worker* w = &job.w
    cdef CState world
    with nogil:
        if params.infer > 0:
            weigh_beliefs(w)
    worlds = []
    for _ in range(count):
        world = state.clone()
        with nogil:
            deal_world(w, world.ptr)
        worlds.append(world)
    return worlds


cdef class SearchRun:
    """A search from one state for its player to move, with `config.threads`
    independent workers (root parallelization). `advance` runs it for a while
    and may be called again: the trees are kept, so an analysis can report
    between slices without touching a running worker."""

    cdef list jobs
    cdef SearchParams params
    cdef double seconds
    cdef int pv_length
    cdef readonly CancelToken cancel_token
    cdef readonly double elapsed

    def __init__(self, CState state, config, CancelToken cancel=None,
                 SearchRun previous=None, int played=-1, int observer=-1):
        """`config` is a `search.search.SearchConfig`: its budget, threads and seed too.
        With `previous`, a search of the same player from the position before, and
        `played`, the move it made there, the search goes on from `previous`'s subtrees
        below that move (tree reuse); `previous` is used up. With `observer` (-1: the
        player to move), an MO-ISMCTS search for that player whoever is to move, to read
        its `value` (its root moves are the mover's as it observes them, not its own)."""
        self.params = search_params(config)
        check_params(state, &self.params)
        if observer != -1:
            check_observer(state, &self.params, observer, previous is not None)
            self.params.observer = observer
        self.seconds = config.seconds
        self.pv_length = config.pv_length
        self.cancel_token = cancel if cancel is not None else CancelToken()
        self.elapsed = 0.0
        self.jobs = []
        cdef int threads = config.threads
        cdef int64_t total = self.params.iterations
        cdef SearchParams share = self.params
        if total > 0:
            threads = min(threads, total)
        if previous is not None:
            previous.check_followed_by(state, self.params, threads)
        seed = config.seed
        for t in range(threads):
            seed_t = (seed + 0x9E3779B97F4A7C15 * t) & 0xFFFFFFFFFFFFFFFF
            # The iteration budget is the whole search's, shared out among the workers.
            share.iterations = total // threads + (1 if t < total % threads else 0) if total > 0 else 0
            if previous is not None:
                job = previous.jobs[t]
                (<_Job>job).reroot(state, played, &share, seed_t, self.cancel_token)
            else:
                job = _Job()
                (<_Job>job).setup(state, &share, seed_t, self.cancel_token)
            self.jobs.append(job)
        if previous is not None:
            previous.jobs = []

    cdef int check_followed_by(self, CState state, SearchParams params, int threads) except -1:
        """ValueError unless a search from `state` with `params` can reuse these trees."""
        if not self.jobs:
            raise ValueError("this search's trees were already reused")
        cdef _Job first = <_Job>self.jobs[0]
        if params.mode == MODE_PIMC or params.mode != first.w.params.mode:
            raise ValueError("only MO-ISMCTS and SO-ISMCTS trees are reused, by the same algorithm")
        if len(self.jobs) != threads:
            raise ValueError("tree reuse needs the same number of threads")
        if state.api != first.w.api or state.api.num_players(state.ptr) != first.w.num_players \
                or state.api.current_player(state.ptr) != first.w.root_player:
            raise ValueError("tree reuse needs the same game and the same player to move")
        return 0

    @property
    def iterations(self) -> int:
        return sum((<_Job>job).w.iterations for job in self.jobs)

    @property
    def finished(self) -> bool:
        """The budget is spent or the search was cancelled."""
        if self.cancel_token.flag:
            return True
        if self.params.iterations > 0 and all(
                (<_Job>job).w.iterations >= (<_Job>job).w.params.iterations for job in self.jobs):
            return True
        return self.seconds > 0 and self.elapsed >= self.seconds

    def stop_within(self, double seconds) -> None:
        """Spend at most `seconds` (> 0) more from now: the time budget shrinks to fit, so a
        caller's deadline counts the time the search waited to start."""
        if not seconds > 0:
            raise ValueError(f"stop_within needs a positive time, not {seconds}")
        cdef double cap = self.elapsed + seconds
        if self.seconds == 0 or cap < self.seconds:
            self.seconds = cap

    def advance(self, double seconds=0.0) -> bool:
        """Run for up to `seconds` more (0: to the end of the budget); return `finished`."""
        if self.finished:
            return True
        budget = self.seconds
        if budget > 0:
            remaining = budget - self.elapsed
            seconds = remaining if seconds <= 0 else min(seconds, remaining)
        start = time.perf_counter()
        cdef double deadline = now() + seconds if seconds > 0 else 0.0
        cdef double final_at = 0.0
        if self.params.show > 0 and budget > 0:
            # The time budget's last `show_share` is the final phase's (as the iterations').
            final_at = now() + max(0.0, budget * (1.0 - self.params.show_share) - self.elapsed)
        if len(self.jobs) == 1:
            self.jobs[0].run(deadline, final_at)
        else:
            workers = [threading.Thread(target=job.run, args=(deadline, final_at),
                                        name=f"regent-search-{i}")
                       for i, job in enumerate(self.jobs)]
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
        self.elapsed += time.perf_counter() - start
        return self.finished

    def value(self) -> float:
        """The searched player's win chance at the root (MO-ISMCTS): the share of the
        iterations it won, its own decisions counted at the move it prefers where that move
        was there (`win_after`, as `show` counts them), the others' as its trees model them.
        ValueError for another algorithm, or before any iteration."""
        if self.params.mode != MODE_MO:
            raise ValueError("value: only MO-ISMCTS keeps a tree of the searched player's own")
        cdef double won = 0.0
        cdef int64_t visits = 0
        cdef _Job job
        cdef int32_t root
        for item in self.jobs:
            job = <_Job>item
            root = job.w.roots[job.w.root_player]
            visits += job.w.nodes[root].visits
            won += win_after(&job.w, root)
        if visits == 0:
            raise ValueError("value: no iteration has run")
        return won / visits

    def stats(self) -> dict:
        """The merged root statistics so far."""
        merged = {}
        for job in self.jobs:
            for action, values in (<_Job>job).root_stats().items():
                entry = merged.setdefault(action, [0, 0.0, 0.0, 0, 0.0])
                for k in range(5):
                    entry[k] += values[k]
        first = <_Job>self.jobs[0]
        ranked = _ranked(merged, self.params.show if self.finished else 0,
                         first.w.num_players == 1)
        return {
            "root_player": first.w.root_player,
            "moves": merged,
            "iterations": self.iterations,
            "actions": sum((<_Job>job).w.actions for job in self.jobs),
            "elapsed": self.elapsed,
            "ranked": ranked,
            "principal_variation": first.principal_variation(self.pv_length,
                                                             ranked[0] if ranked else -1),
            "nodes": sum((<_Job>job).w.n_nodes for job in self.jobs),
            "capped": sum((<_Job>job).w.capped for job in self.jobs),
            "out_of_memory": any((<_Job>job).w.out_of_memory for job in self.jobs),
        }


def _ranked(dict merged, int show, bint alone) -> list:
    """Merged root statistics' moves in the order the search recommends them, its move first:
    most visits, then the highest mean reward, then the lowest id. With `show` (K, its final
    phase done) the first K by their worth to the player instead: the highest win chance
    (alone, the highest mean reward: no one to beat, only a score), then that order."""
    cdef int k
    order = sorted(merged, key=lambda a: (-merged[a][0], -mean_reward(merged[a]), a))
    k = min(show, len(order))
    if k > 1:
        worth = mean_reward if alone else win_chance
        order[:k] = sorted(order[:k], key=lambda a: -worth(merged[a]))
    return order


def mean_reward(entry) -> float:
    """The mean reward of a move's root statistics (visits, reward, win, ...; 0 unvisited)."""
    return entry[1] / entry[0] if entry[0] else 0.0


def win_chance(entry) -> float:
    """The root player's mean game result over a move's root statistics (0 unvisited)."""
    return entry[2] / entry[0] if entry[0] else 0.0


def heuristic_action(CState state, seed, bint playout=False) -> int:
    """The game's hand-written policy for the player to move in `state`: by its hand-set
    judgement (the heuristic player), or by the playouts' weights (`playout`)."""
    cdef uint64_t rng[4]
    rng_seed(rng, seed & 0xFFFFFFFFFFFFFFFF)
    return state.api.heuristic_action(state.ptr, rng, playout)


def playout_results(CState state, int playouts, double epsilon, seed) -> tuple:
    """(mean returns per player, each mean's sampling variance) of `playouts` playouts by
    the playout policy (the heuristic, a uniformly random move with probability
    `epsilon`), each from a world dealt again from the view of the player to move, as the
    search deals them: what bench/balance_heuristic.py fits the heuristic to."""
    if playouts < 2:
        raise ValueError(f"playouts must be at least 2, not {playouts}")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be in [0, 1], not {epsilon}")
    if state.api.is_terminal(state.ptr):
        raise ValueError("the game is over: there is nothing to play out")
    cdef const GameApi* api = state.api
    cdef int players = api.num_players(state.ptr), mover = api.current_player(state.ptr), k, p
    cdef double r[MAX_GAME_PLAYERS]
    cdef double total[MAX_GAME_PLAYERS]
    cdef double squares[MAX_GAME_PLAYERS]
    cdef int16_t buf[MAX_GAME_ACTIONS]
    cdef uint64_t rng[4]
    cdef void* d = malloc(api.state_size)
    if d == NULL:
        raise MemoryError()
    rng_seed(rng, seed & 0xFFFFFFFFFFFFFFFF)
    memset(total, 0, sizeof(total))
    memset(squares, 0, sizeof(squares))
    with nogil:
        for k in range(playouts):
            memcpy(d, state.ptr, api.state_size)
            api.resample(d, mover, rng)
            while not api.is_terminal(d):
                api.apply_action(d, playout_action(api, d, True, epsilon, rng, buf))
            api.returns(d, r)
            for p in range(players):
                total[p] += r[p]
                squares[p] += r[p] * r[p]
    free(d)
    means = [total[p] / playouts for p in range(players)]
    variances = [max(0.0, (squares[p] - playouts * means[p] ** 2) / (playouts - 1)) / playouts
                 for p in range(players)]
    return means, variances
