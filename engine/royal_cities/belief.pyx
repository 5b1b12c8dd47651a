# What the others' choices left in public tells of their hands: a model of the cards a
# player keeps, fitted to the hands of recorded games (bench/royal_cities_fit_hands.py),
# weighs each deal of the cards a player cannot see by how likely it makes the others'
# hands. Its inputs are what their passes, purchases, plays and builds left on the table:
# a card still buildable on an own City was not built at the last construction, a colour
# bought in public is collected, a City led is fed. The search draws its worlds' hands from
# deals weighed so (its `infer` option); the models live in models/, each naming the player
# counts it serves.
import json
import math

from engine.resources import folder_files, package_folder, readable

from libc.math cimport INFINITY
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy

from engine.cstate cimport CState
from engine.royal_cities.core cimport (
    LOC_DRAWN, LOC_HAND, LOC_PILE, LOC_RESERVE, MAX_PLAYERS, NUM_CARDS, NUM_CITIES, NUM_KINDS,
    PH_END, WHITE, RCState, rc_canonical_known, rc_card_colour, rc_card_kind, rc_city_top_value,
    rc_count_hands, rc_hidden_from, rc_influence, rc_reroll_secrets, rc_resample,
)

#: The inputs of the hand model, for a card of one kind in one player's hand, each read from
#: the public state (and what the observer knows of that hand).
FEATURES = (
    "white", "value_0", "value_1", "value_2", "value_3", "value_4", "value_5", "value_6",
    "buildable", "buildable_late", "white_buildable", "city", "no_city", "lead",
    "known_same", "market_same",
)
DEF NUM_FEATURES = 16

cdef enum:
    NOT_HELD = 255

# Per player count: the weights of a held card's logit, linear in the features.
cdef double TABLE[MAX_PLAYERS + 1][NUM_FEATURES]
cdef bint READY[MAX_PLAYERS + 1]


cdef void features(const RCState* s, int q, int kind, int observer, double* x) noexcept nogil:
    """The hand model's inputs for a card of `kind` in player q's hand, as `observer` sees q."""
    cdef int c = kind // 7, v = kind % 7, j, i, card, p, most = 0, same = 0
    cdef bint white_ok = False
    for j in range(NUM_FEATURES):
        x[j] = 0.0
    x[1 + v] = 1.0
    if c == WHITE:
        x[0] = 1.0
        for j in range(NUM_CITIES):
            if v > rc_city_top_value(s, q, j):
                for i in range(s.city_n[q][j]):
                    if rc_card_colour(s.city[q][j][i]) != WHITE:
                        white_ok = True
        x[10] = 1.0 if white_ok else 0.0
        return
    if v > rc_city_top_value(s, q, c):
        x[8] = 1.0
        x[9] = s.season / <double>max(1, s.num_seasons - 1)
    x[11] = s.city_n[q][c] / 3.0
    x[12] = 1.0 if s.city_n[q][c] == 0 else 0.0
    for p in range(s.num_players):
        if p != q:
            most = max(most, rc_influence(s, p, c))
    x[13] = min(2.0, max(-2.0, (rc_influence(s, q, c) - most) / 6.0))
    for card in range(NUM_CARDS):
        if s.loc[card] == LOC_HAND + q and not rc_hidden_from(s, card, observer) and \
                rc_card_colour(card) == c:
            same += 1
    x[14] = same / 2.0
    x[15] = s.mkt_col[c] / 3.0


cdef void logits(const RCState* s, int q, int observer, double* out) noexcept nogil:
    """Each kind's logit as a card unseen in q's hand, under the model of the player count."""
    cdef double x[NUM_FEATURES]
    cdef int kind, j
    for kind in range(NUM_KINDS):
        features(s, q, kind, observer, x)
        out[kind] = 0.0
        for j in range(NUM_FEATURES):
            out[kind] += TABLE[s.num_players][j] * x[j]


cdef double rc_hands_loglik(const RCState* s, int observer) noexcept nogil:
    """log of the model's weight of the others' hands as s deals them (up to a constant of
    what observer sees): the sum of the logits of every card observer cannot see in them."""
    cdef double v[NUM_KINDS]
    cdef double total = 0.0
    cdef int q, card
    for q in range(s.num_players):
        if q == observer:
            continue
        logits(s, q, observer, v)
        for card in range(NUM_CARDS):
            if s.loc[card] == LOC_HAND + q and rc_hidden_from(s, card, observer):
                total += v[rc_card_kind(card)]
    return total


cdef bint rc_belief_ready(const RCState* s) noexcept nogil:
    return READY[s.num_players]


cdef double rc_belief_deal(const RCState* root, int player, RCDeal* deal, uint64_t* rng) noexcept nogil:
    """One deal of the cards `player` cannot see, uniform as the search's resample deals them,
    into `deal` (the others' hands); its log weight under the hand model (-INFINITY when the
    game is over)."""
    cdef RCState world
    cdef int card, q
    if root.phase == PH_END:
        return -INFINITY
    memcpy(&world, root, sizeof(RCState))
    rc_resample(&world, player, rng)
    deal.player = player
    for card in range(NUM_CARDS):
        deal.owner[card] = NOT_HELD
        q = world.loc[card] - LOC_HAND
        if 0 <= q < MAX_PLAYERS and q != player and rc_hidden_from(&world, card, player):
            deal.owner[card] = q
    return rc_hands_loglik(&world, player)


cdef void set_place(RCState* s, int card, int place, int was) noexcept nogil:
    """Card takes the hidden place `place` that `was` held (its slot in the pile, the Reserve
    or the drawn cards)."""
    cdef int i
    if place == LOC_PILE:
        for i in range(s.pile_n):
            if s.pile[i] == was:
                s.pile[i] = card
    elif place == LOC_RESERVE:
        for i in range(s.reserve_n):
            if s.reserve[i] == was:
                s.reserve[i] = card
    elif place == LOC_DRAWN:
        for i in range(s.drawn_n):
            if s.drawn[i] == was:
                s.drawn[i] = card
    s.loc[card] = place


cdef void rc_belief_put(RCState* s, const RCDeal* deal, uint64_t* rng) noexcept nogil:
    """Put a weighed deal in a world resampled for the same player from the same root: each
    card the deal puts in a hand changes places with one of that hand's unseen cards the deal
    puts elsewhere, so the pile keeps the world's own order otherwise; the others' secret
    choices are then made again from their new hands. Who knows each card is then what the
    deal's player can tell, as the resample leaves it."""
    cdef int player = deal.player, x, y, q, lx, ly, card
    for card in range(NUM_CARDS):
        if rc_hidden_from(s, card, player):
            s.sel_city[card] = -1
    for x in range(NUM_CARDS):
        q = deal.owner[x]
        if q == NOT_HELD or s.loc[x] == LOC_HAND + q:
            continue
        for y in range(NUM_CARDS):
            if s.loc[y] == LOC_HAND + q and rc_hidden_from(s, y, player) and deal.owner[y] != q:
                lx, ly = s.loc[x], s.loc[y]
                set_place(s, y, lx, x)
                set_place(s, x, ly, y)
                break
    rc_canonical_known(s, player)
    rc_count_hands(s)
    rc_reroll_secrets(s, player, rng)


# -- Python: the models' files, and what tests and bench/royal_cities_fit_hands.py read ----

def hand_inputs(CState state, int observer) -> tuple:
    """What the fit reads at `state` from `observer`'s view: (how many cards of each kind
    observer cannot see, and per other player [its features of each kind, the kinds of its
    cards observer cannot see])."""
    cdef const RCState* s = <const RCState*>state.ptr
    cdef double x[NUM_FEATURES]
    cdef int card, q, kind
    if not 0 <= observer < s.num_players:
        raise ValueError("observer: a player of the game")
    pool = [0] * NUM_KINDS
    for card in range(NUM_CARDS):
        if rc_hidden_from(s, card, observer):
            pool[rc_card_kind(card)] += 1
    others = []
    for q in range(s.num_players):
        if q == observer:
            continue
        table = []
        for kind in range(NUM_KINDS):
            features(s, q, kind, observer, x)
            table.append([x[j] for j in range(NUM_FEATURES)])
        held = [rc_card_kind(card) for card in range(NUM_CARDS)
                if s.loc[card] == LOC_HAND + q and rc_hidden_from(s, card, observer)]
        others.append((table, held))
    return pool, others


def hands_loglik(CState state, int observer) -> float:
    """The model's log weight of the others' hands at `state` from `observer`'s view;
    ValueError when the player count has no model."""
    cdef const RCState* s = <const RCState*>state.ptr
    if not READY[s.num_players]:
        raise ValueError(f"no hand model at {s.num_players} players")
    if not 0 <= observer < s.num_players:
        raise ValueError("observer: a player of the game")
    return rc_hands_loglik(s, observer)


def model_players() -> tuple:
    """The player counts that have a hand model."""
    return tuple(n for n in range(MAX_PLAYERS + 1) if READY[n])


def load_model(path) -> tuple:
    """Put a hand model's file in force (`{"game": "royal_cities", "players": [n, ...],
    "features": FEATURES, "weights": one per feature}`), for the whole process and never while
    a search runs; its player counts. ValueError names the file and what is wrong, and then
    nothing changes."""
    path = readable(path)
    try:
        model = json.loads(path.read_text())
        players, weights = model["players"], [float(v) for v in model["weights"]]
        if model["game"] != "royal_cities" or tuple(model["features"]) != FEATURES:
            raise ValueError("not a Royal Cities hand model on this module's features")
        if not players or any(isinstance(n, bool) or n not in range(2, MAX_PLAYERS + 1)
                              for n in players):
            raise ValueError(f"players must be counts from 2 to {MAX_PLAYERS}")
        if len(weights) != NUM_FEATURES or not all(math.isfinite(v) for v in weights):
            raise ValueError(f"weights must be {NUM_FEATURES} finite numbers")
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ValueError(f"{path}: not a hand model ({err})") from None
    for n in players:
        for j in range(NUM_FEATURES):
            TABLE[n][j] = weights[j]
        READY[n] = True
    return tuple(players)


def _load_defaults() -> None:
    for path in folder_files(package_folder("engine.royal_cities", "models"), "hands-*.json",
                             "hand models"):
        load_model(path)


_load_defaults()
