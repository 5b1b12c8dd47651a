# The Royal Cities core: one C struct holds a whole game, and these noexcept
# nogil functions play it. search/ cimports them; the Python State wraps them.
#
# Naming (the same in every core): each C function this .pxd declares or defines
# starts with the game's prefix (rc_ here; each core its own); the helpers core.pyx
# keeps to itself have no prefix and are static there (a cdef function that no
# .pxd declares), most of them cdef inline. Constants are cdef enums, never DEF.
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint64_t

cdef enum:
    NUM_CARDS = 85
    NUM_KINDS = 49          # kind = colour * 7 + value; colour 6 is white
    NUM_CITIES = 6          # purple, yellow, pink, red, blue, green
    NUM_COLOURS = 7         # the six Cities' colours and white
    MAX_PLAYERS = 4
    REGENT = 4              # owner index of the Regent's Cities (solo mode)
    NUM_OWNERS = 5
    RESERVE_SIZE = 4
    MARKET_MAX = 16
    CITY_MAX = 7
    DRAWN_MAX = 3
    NO_CARD = 255
    ALL_PLAYERS = 0x0F
    MAX_LEGAL = 128

# Card colours: a City's colour, or white (which no City has).
cdef enum:
    PURPLE = 0
    YELLOW = 1
    PINK = 2
    RED = 3
    BLUE = 4
    GREEN = 5
    WHITE = 6

# A coloured card's effect is its value.
cdef enum:
    EFFECT_EMPTINESS = 0    # discard a Market card
    EFFECT_VILLAGER = 1     # take back the top card of an own City
    EFFECT_JESTER = 2       # draw a card
    EFFECT_ASSASSIN = 3     # discard the top card of any City
    EFFECT_MERCHANT = 4     # take a Market card
    EFFECT_KNIGHT = 5       # move the top card of a City into an own City
    EFFECT_ASTROLOGER = 6   # draw three, build up to two of them

# An engine limit: a game still running after this many turns ends there. Play can
# go on without end (Merchants taking Merchants back from a small Market); no real or
# random game comes near it (random games take well under 100 turns).
cdef enum:
    MAX_TURNS = 1000

# Where a card is. Cities are numbered owner * 6 + colour.
cpdef enum Location:
    LOC_PILE = 0
    LOC_RESERVE = 1
    LOC_DISCARD = 2
    LOC_MARKET = 3
    LOC_DRAWN = 4           # drawn by the player to move, not yet placed
    LOC_HAND = 8            # + player
    LOC_CITY = 16           # + owner * 6 + colour

# Action ids: fixed ranges, sorted by id within every decision.
cpdef enum Action:
    A_PLAY_HAND = 0         # + kind: discard a hand card for its effect
    A_PLAY_CITY = 49        # + colour: discard the top card of an own City
    A_PURCHASE = 55
    A_ADD = 56
    A_ADD_HERO = 57
    A_STOP = 58             # ends a purchase or a construction; "build nothing"
    A_BUY = 59              # + kind
    A_MARKET_DISCARD = 108  # + kind: Emptiness, solo Market trim
    A_MARKET_TAKE = 157     # + kind: Merchant
    A_TARGET = 206          # + owner * 6 + colour: Assassin, Knight source
    A_OWN_CITY = 236        # + colour: Villager, Knight destination
    A_BUILD = 242           # + kind * 6 + city
    A_PASS = 536            # + kind
    A_KEEP = 585            # + kind: the drawn card that goes to the Market
    A_REGENT = 634          # + kind * 6 + city: a card for the Regent's City
    A_TAX = 928             # + colour: a Royal Taxes tie chosen by the player
    NUM_ACTIONS = 934

# The decision pending in a state.
cpdef enum Phase:
    PH_PASS = 0             # setup: secret passing
    PH_FIRST_BUILD = 1      # setup: secret first build
    PH_SOLO_OWN = 2         # solo setup: build one card of the four drawn
    PH_SOLO_REGENT = 3      # solo setup: one card for the Regent
    PH_TURN = 4             # play a card / purchase / add
    PH_EFFECT = 5           # the target of the pending effect
    PH_KNIGHT_DEST = 6      # where the Knight puts a white card
    PH_PURCHASE = 7         # take cards, then stop
    PH_HERO_KEEP = 8        # which of two drawn cards goes to the Market
    PH_SOLO_ADD = 9         # which drawn card goes to the Regent
    PH_REGENT_WHITE = 10    # which Regent City takes a drawn white card
    PH_CONSTRUCT = 11       # Season construction, secret
    PH_TAX = 12             # Royal Taxes: choose among tied Cities
    PH_SOLO_TRIM = 13       # solo: discard Market cards down to four
    PH_END = 14

cpdef enum Resume:
    RESUME_SETUP = 0
    RESUME_CATCHUP = 1

cpdef enum EffectSource:
    SRC_PLAY = 0            # step A of a turn
    SRC_REVOLT = 1          # a Revolt after the purchase

cdef struct RCRules:
    uint8_t crown_through_white
    uint8_t hero_on_every_revolt
    uint8_t white_with_existing_partner
    uint8_t catch_up_upper_inclusive
    uint8_t expert_royal_taxes
    uint8_t regent_scores_revolts

cdef struct RCState:
    uint64_t rng[4]         # the game's own chance (reshuffles)
    RCRules rules
    uint8_t num_players     # 1 = solo against the Regent
    uint8_t num_seasons
    uint8_t season          # 0-based
    uint8_t phase
    uint8_t cur
    uint8_t starter
    uint8_t last_purchaser
    uint8_t turn_played
    uint8_t purchased       # bitmask of players
    uint8_t hero_up         # bitmask of players
    uint8_t effect
    uint8_t effect_src
    uint8_t knight_from     # owner * 6 + colour of the Knight's white card
    uint8_t power
    uint8_t min_kind        # canonical order inside a purchase or trim
    uint8_t taken
    uint8_t committed       # players whose secret choice is made
    uint8_t resume
    uint8_t regent_draws
    uint8_t tax_left
    uint8_t tax_done        # bitmask of colours
    uint8_t age_rank[MAX_PLAYERS]   # 0 = youngest: the last start tie-break
    int16_t vp[NUM_OWNERS]
    int8_t season_vp[NUM_CITIES]    # solo: the player's VP per colour this Season
    uint8_t season_infl[NUM_CITIES] # solo: the player's influence at scoring
    uint8_t pass_n[MAX_PLAYERS]
    uint8_t pass_sel[MAX_PLAYERS][2]
    uint8_t fb_sel[MAX_PLAYERS]
    int16_t con_last[MAX_PLAYERS]   # last (kind * 6 + city) selected
    uint8_t con_n[MAX_PLAYERS]
    uint8_t con_vals[MAX_PLAYERS][NUM_CITIES]
    uint8_t con_colored[MAX_PLAYERS][NUM_CITIES]
    int8_t sel_city[NUM_CARDS]      # city a selected card is to be built in
    uint8_t loc[NUM_CARDS]
    uint8_t known[NUM_CARDS]        # who knows this hidden card (bit per player)
    uint8_t pile[NUM_CARDS]         # the top is pile[pile_n - 1]
    uint8_t pile_n
    uint8_t reserve[RESERVE_SIZE]
    uint8_t reserve_n
    uint8_t market[MARKET_MAX]
    uint8_t market_n
    uint8_t mkt_kind[NUM_KINDS]
    uint64_t mkt_mask               # bit k: the Market holds a card of kind k
    uint8_t mkt_col[NUM_COLOURS]
    uint8_t drawn[DRAWN_MAX]
    uint8_t drawn_n
    uint8_t discard_n
    uint8_t hand_n[MAX_PLAYERS]
    uint8_t hand_kind[MAX_PLAYERS][NUM_KINDS]
    uint64_t hand_mask[MAX_PLAYERS] # bit k: the hand holds a card of kind k
    uint8_t city[NUM_OWNERS][NUM_CITIES][CITY_MAX]
    uint8_t city_n[NUM_OWNERS][NUM_CITIES]
    uint8_t city_vals[NUM_OWNERS][NUM_CITIES]
    uint16_t turns          # turns ended so far (see MAX_TURNS)

# Card ids: colour c (0-5) owns ids 13c .. 13c+12 (values 0, 1, 1, 2, 2, .. 6, 6);
# the white cards are ids 78 + value.
cdef inline int rc_card_colour(int card) noexcept nogil:
    return card // 13 if card < 78 else WHITE


cdef inline int rc_card_value(int card) noexcept nogil:
    return ((card % 13) + 1) // 2 if card < 78 else card - 78


cdef inline int rc_card_kind(int card) noexcept nogil:
    return rc_card_colour(card) * 7 + rc_card_value(card)


cdef inline int rc_kind_first_id(int kind) noexcept nogil:
    cdef int colour = kind // 7, value = kind % 7
    if colour == WHITE:
        return 78 + value
    return colour * 13 if value == 0 else colour * 13 + 2 * value - 1


cdef inline int rc_kind_copies(int kind) noexcept nogil:
    return 1 if (kind // 7 == WHITE or kind % 7 == 0) else 2


# Whether `player` cannot see the card: always in the pile or the Reserve, in a hand or among
# the drawn cards when nobody showed it to them.
cdef inline bint rc_hidden_from(const RCState* s, int card, int player) noexcept nogil:
    cdef int l = s.loc[card]
    if l == LOC_PILE or l == LOC_RESERVE:
        return True
    if (l >= LOC_HAND and l < LOC_HAND + MAX_PLAYERS) or l == LOC_DRAWN:
        return not ((s.known[card] >> player) & 1)
    return False


cdef void rc_market_add(RCState* s, int card) noexcept nogil
cdef void rc_hand_add(RCState* s, int player, int card, int known) noexcept nogil
cdef bint rc_can_select(const RCState* s, int player, int kind, int colour) noexcept nogil
cdef void rc_select_card(RCState* s, int player, int card, int colour) noexcept nogil
cdef void rc_init(RCState* s, int num_players, uint64_t seed, const RCRules* rules) noexcept nogil
cdef int rc_legal_actions(const RCState* s, int16_t* out) noexcept nogil
cdef void rc_apply(RCState* s, int action) noexcept nogil
cdef bint rc_is_terminal(const RCState* s) noexcept nogil
cdef int rc_current_player(const RCState* s) noexcept nogil
cdef void rc_returns(const RCState* s, double* out) noexcept nogil
cdef int rc_num_scores(const RCState* s) noexcept nogil
cdef void rc_scores(const RCState* s, int* out) noexcept nogil
cdef bint rc_decision_is_secret(const RCState* s) noexcept nogil
cdef void rc_canonical_known(RCState* s, int player) noexcept nogil
cdef void rc_count_hands(RCState* s) noexcept nogil
cdef void rc_resample(RCState* s, int player, uint64_t* rng) noexcept nogil
cdef void rc_reroll_secrets(RCState* s, int player, uint64_t* rng) noexcept nogil
cdef int rc_check(const RCState* s) noexcept nogil
cdef int rc_cards_built(const RCState* s, int owner) noexcept nogil
cdef int rc_observed_action(const RCState* s, int action, int observer) noexcept nogil
cdef void rc_margins(const RCState* s, double* out) noexcept nogil
cdef int rc_city_top_value(const RCState* s, int owner, int colour) noexcept nogil
cdef int rc_influence(const RCState* s, int owner, int colour) noexcept nogil
cdef int rc_colour_points(const RCState* s, int owner, int colour, int infl) noexcept nogil
