# What the draft tells of the characters: a model of how players pick, fitted to recorded
# picks (bench/citadels_fit_picks.py), weighs each deal of the characters a player cannot
# place by how likely it makes the others' picks this round. The search draws its worlds'
# characters from deals weighed so (its `infer` option); the models live in models/, each
# naming the player counts it serves.
import json
import math

from engine.resources import folder_files, package_folder, readable

from libc.math cimport INFINITY, exp, log
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy

from engine.citadels.core cimport (
    MAX_PLAYERS, NO_CHAR, NUM_CHARS, PH_DISCARD, PH_END, PH_PICK, CTState, ct_deal_characters,
    ct_draft_step, ct_income,
)
from engine.cstate cimport CState
from engine.rng cimport rng_seed

#: The inputs of the pick model, each read from the public state as the picker sees it.
FEATURES = (
    "bias", "gold", "hand", "city", "most_city_other", "city_lead", "crowned",
    "picks_first", "picks_second", "picks_third", "picks_fourth", "most_gold_other",
    "most_hand_other", "shown", "round",
)
DEF NUM_FEATURES = 15

# Per player count: a logit per character, linear in the features and the character's income.
cdef double TABLE[MAX_PLAYERS + 1][NUM_CHARS][NUM_FEATURES]
cdef double INCOME[MAX_PLAYERS + 1]
cdef bint READY[MAX_PLAYERS + 1]


cdef void features(const CTState* s, int p, uint8_t shown, double* x) noexcept nogil:
    """The pick model's inputs for player p shown the characters `shown` (a bitmask)."""
    cdef int q, c, most_city = 0, most_gold = 0, most_hand = 0, n = 0, order
    for q in range(s.num_players):
        if q != p:
            most_city = max(most_city, s.city_n[q])
            most_gold = max(most_gold, s.gold[q])
            most_hand = max(most_hand, s.hand_n[q])
    for c in range(NUM_CHARS):
        n += (shown >> c) & 1
    order = (p - s.first_picker + s.num_players) % s.num_players
    x[0] = 1.0
    x[1] = s.gold[p] / 5.0
    x[2] = s.hand_n[p] / 3.0
    x[3] = s.city_n[p] / 4.0
    x[4] = most_city / 4.0
    x[5] = (s.city_n[p] - most_city) / 4.0
    x[6] = 1.0 if s.crown == p else 0.0
    for q in range(4):
        x[7 + q] = 1.0 if order == q else 0.0
    x[11] = most_gold / 5.0
    x[12] = most_hand / 3.0
    x[13] = n / 5.0
    x[14] = s.round_no / 5.0


cdef double pick_loglik(const CTState* s, int p, uint8_t shown, int chosen) noexcept nogil:
    """log P(p picks `chosen` when shown `shown`): a softmax of the characters' logits."""
    cdef double x[NUM_FEATURES]
    cdef double v[NUM_CHARS]
    cdef double top = -INFINITY, total = 0.0
    cdef int c, j, n = s.num_players
    if not (shown >> chosen) & 1:
        return -INFINITY        # no deal the observer could hold true
    features(s, p, shown, x)
    for c in range(NUM_CHARS):
        if (shown >> c) & 1:
            v[c] = INCOME[n] * ct_income(s, p, c)
            for j in range(NUM_FEATURES):
                v[c] += TABLE[n][c][j] * x[j]
            top = max(top, v[c])
    for c in range(NUM_CHARS):
        if (shown >> c) & 1:
            total += exp(v[c] - top)
    return v[chosen] - top - log(total)


cdef double ct_draft_loglik(const CTState* s, int observer) noexcept nogil:
    """log P(the others' picks this round | the characters as s deals them), each pick read
    from the set it was shown. The inputs are the public state as it stands (during the
    draft, as it was at each pick: nothing public changes before the first turn)."""
    cdef int step, p, slot, k, c
    cdef int made[MAX_PLAYERS]
    cdef bint discard
    cdef double total = 0.0
    cdef int steps = 6 if s.num_players <= 3 else s.num_players
    if s.phase == PH_PICK or s.phase == PH_DISCARD:
        steps = s.step
    for p in range(MAX_PLAYERS):
        made[p] = 0
    for step in range(steps):
        if s.num_players == 7 and step == 6:
            break               # the seventh player keeps one of the last two: no set shown
        ct_draft_step(s, step, &p, &slot, &discard)
        if discard:
            continue
        k = made[p]
        made[p] += 1
        c = s.slot_char[slot]
        if p == observer or k >= s.obs_n[p] or c == NO_CHAR:
            continue
        total += pick_loglik(s, p, s.obs_set[p][k], c)
    return total


cdef bint ct_belief_ready(const CTState* s) noexcept nogil:
    return READY[s.num_players]


cdef double ct_belief_deal(const CTState* root, int player, CTDeal* deal, uint64_t* rng) noexcept nogil:
    """One deal of the characters `player` cannot place, uniform among the consistent ones,
    into `deal`; its log likelihood under the pick model (-INFINITY when there is none)."""
    cdef CTState world
    memcpy(&world, root, sizeof(CTState))
    if world.phase == PH_END or not ct_deal_characters(&world, player, rng):
        return -INFINITY
    memcpy(deal.slot_char, world.slot_char, sizeof(deal.slot_char))
    memcpy(deal.slot_owner, world.slot_owner, sizeof(deal.slot_owner))
    memcpy(deal.holder, world.holder, sizeof(deal.holder))
    memcpy(deal.obs_set, world.obs_set, sizeof(deal.obs_set))
    deal.pool = world.pool
    return ct_draft_loglik(&world, player)


cdef void ct_belief_put(CTState* s, const CTDeal* deal) noexcept nogil:
    """Put a weighed deal in a world resampled for the same player from the same root: the
    districts' deal does not depend on the characters', so any deal fits any such world."""
    memcpy(s.slot_char, deal.slot_char, sizeof(deal.slot_char))
    memcpy(s.slot_owner, deal.slot_owner, sizeof(deal.slot_owner))
    memcpy(s.holder, deal.holder, sizeof(deal.holder))
    memcpy(s.obs_set, deal.obs_set, sizeof(deal.obs_set))
    s.pool = deal.pool


# -- Python: the models' files, and what tests and bench/citadels_fit_picks.py read --------

def pick_inputs(CState state, int player, int shown) -> tuple:
    """(features, income of each character) of `player` shown the characters in the bitmask
    `shown`, as the model reads them: what bench/citadels_fit_picks.py fits on."""
    cdef double x[NUM_FEATURES]
    cdef const CTState* s = <const CTState*>state.ptr
    if not 0 <= player < s.num_players or not 0 < shown < (1 << NUM_CHARS):
        raise ValueError("a player of the game and a non-empty set of characters")
    features(s, player, shown, x)
    return [x[j] for j in range(NUM_FEATURES)], [ct_income(s, player, c) for c in range(NUM_CHARS)]


def draft_loglik(CState state, int observer) -> float:
    """log P(the picks of everyone but `observer` this round) under the model of the game's
    player count; ValueError when there is none."""
    cdef const CTState* s = <const CTState*>state.ptr
    if not READY[s.num_players]:
        raise ValueError(f"no pick model at {s.num_players} players")
    return ct_draft_loglik(s, observer)


def holders(CState state, int player, int deals, seed) -> list:
    """P(each player holds each character) after `deals` deals from `player`'s view weighed by
    the pick model: the posterior the search draws from, as [player][character]."""
    cdef const CTState* s = <const CTState*>state.ptr
    cdef CTDeal deal
    cdef uint64_t rng[4]
    cdef double w, top = -INFINITY
    cdef int c
    if not READY[s.num_players]:
        raise ValueError(f"no pick model at {s.num_players} players")
    rng_seed(rng, seed)
    weighed = []
    for _ in range(deals):
        w = ct_belief_deal(s, player, &deal, rng)
        if w > -INFINITY:
            weighed.append((w, [deal.holder[c] for c in range(NUM_CHARS)]))
            top = max(top, w)
    out = [[0.0] * NUM_CHARS for _ in range(s.num_players)]
    total = sum(math.exp(w - top) for w, _ in weighed)
    for w, held in weighed:
        for c, q in enumerate(held):
            if q < s.num_players:
                out[q][c] += math.exp(w - top) / total
    return out


def model_players() -> tuple:
    """The player counts that have a pick model."""
    return tuple(n for n in range(MAX_PLAYERS + 1) if READY[n])


def load_model(path) -> tuple:
    """Put a pick model's file in force (`{"game": "citadels", "players": [n, ...],
    "features": FEATURES, "table": 8 rows of logit weights, "income": weight}`), for the whole
    process and never while a search runs; its player counts. ValueError names the file and
    what is wrong, and then nothing changes."""
    path = readable(path)
    try:
        model = json.loads(path.read_text())
        players, table, income = model["players"], model["table"], float(model["income"])
        if model["game"] != "citadels" or tuple(model["features"]) != FEATURES:
            raise ValueError("not a Citadels pick model on this module's features")
        if not players or any(isinstance(n, bool) or n not in range(2, MAX_PLAYERS + 1)
                              for n in players):
            raise ValueError(f"players must be counts from 2 to {MAX_PLAYERS}")
        rows = [[float(v) for v in row] for row in table]
        if len(rows) != NUM_CHARS or any(len(row) != NUM_FEATURES for row in rows):
            raise ValueError(f"the table has {NUM_CHARS} rows of {NUM_FEATURES} weights")
        if not all(math.isfinite(v) for row in rows for v in row) or not math.isfinite(income):
            raise ValueError("every weight must be finite")
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ValueError(f"{path}: not a pick model ({err})") from None
    for n in players:
        for c in range(NUM_CHARS):
            for j in range(NUM_FEATURES):
                TABLE[n][c][j] = rows[c][j]
        INCOME[n] = income
        READY[n] = True
    return tuple(players)


def _load_defaults() -> None:
    for path in folder_files(package_folder("engine.citadels", "models"), "picks-*.json",
                             "pick models"):
        load_model(path)


_load_defaults()
