# The Citadels core: one C struct holds a whole game, and these noexcept nogil
# functions play it. search/ cimports them; the Python State wraps them.
#
# Naming (the same in every core): each C function this .pxd declares or defines
# starts with the game's prefix (ct_ here; each core its own; CT_ for the constant
# tables); the helpers core.pyx keeps to itself have no prefix and are static there
# (a cdef function that no .pxd declares), most of them cdef inline. Constants are
# cdef enums, never DEF.
from libc.stdint cimport int16_t, uint8_t, uint32_t, uint64_t

cdef enum:
    NUM_DISTRICTS = 68
    NUM_DKINDS = 30
    NUM_CHARS = 8
    NUM_COLOURS = 5
    MAX_PLAYERS = 7
    MAX_SLOTS = 8
    NOBODY = 255            # no player: a discarded character, no first city
    NO_CARD = 255
    NO_CHAR = 255
    DRAWN_MAX = 3
    MAX_LEGAL = 256
    ALL_CHARS = 0xFF

# An engine limit: a game still going after this many rounds is ended there (no
# sane play gets close).
cdef enum:
    MAX_ROUNDS = 200

# The district deck (RULES-NOTES): kind ids in colour order, cards by kind.
cdef extern from *:
    """
    static const unsigned char CT_KIND[68] = {
        0,0,0,0,0,1,1,1,1,2,2,2,3,3,3,4,4,4,5,5,5,6,6,7,7,7,7,7,8,8,8,8,9,9,9,10,10,10,
        11,11,11,12,12,13,13,13,14,14,14,15,15,15,16,16,17,18,18,19,20,21,22,23,24,25,
        26,27,28,29};
    static const unsigned char CT_FIRST[30] = {
        0,5,9,12,15,18,21,23,28,32,35,38,41,43,46,49,52,54,55,57,58,59,60,61,62,63,64,65,66,67};
    static const unsigned char CT_COPIES[30] = {
        5,4,3, 3,3,3,2, 5,4,3,3,3,2, 3,3,3,2, 1,2,1,1,1,1,1,1,1,1,1,1,1};
    static const unsigned char CT_COST[30] = {
        3,4,5, 1,2,3,5, 1,2,2,3,4,5, 1,2,3,5, 2,3,4,5,5,5,5,5,6,6,6,6,6};
    static const unsigned char CT_COLOUR[30] = {
        0,0,0, 1,1,1,1, 2,2,2,2,2,2, 3,3,3,3, 4,4,4,4,4,4,4,4,4,4,4,4,4};
    """
    const unsigned char CT_KIND[68]
    const unsigned char CT_FIRST[30]
    const unsigned char CT_COPIES[30]
    const unsigned char CT_COST[30]
    const unsigned char CT_COLOUR[30]

cdef enum:                  # characters
    ASSASSIN = 0
    THIEF = 1
    MAGICIAN = 2
    KING = 3
    BISHOP = 4
    MERCHANT = 5
    ARCHITECT = 6
    WARLORD = 7

cpdef enum Colour:
    NOBLE = 0               # yellow
    RELIGIOUS = 1           # blue
    TRADE = 2               # green
    MILITARY = 3            # red
    UNIQUE = 4              # purple

# The unique districts whose effects the rules name.
cpdef enum Unique:
    K_HAUNTED_QUARTER = 17
    K_KEEP = 18
    K_OBSERVATORY = 19
    K_LABORATORY = 20
    K_SMITHY = 21
    K_GRAVEYARD = 22
    K_IMPERIAL_TREASURY = 23
    K_MAP_ROOM = 24
    K_LIBRARY = 25
    K_GREAT_WALL = 26
    K_SCHOOL_OF_MAGIC = 27
    K_UNIVERSITY = 28
    K_DRAGON_GATE = 29

cpdef enum Location:
    LOC_DECK = 0
    LOC_ASIDE = 1           # drawn and not yet kept, or destroyed and awaiting the Graveyard
    LOC_HAND = 2            # + player
    LOC_CITY = 9            # + player

# Action ids: fixed ranges, sorted by id within every decision.
cpdef enum Action:
    A_PICK = 0              # + character: a draft pick
    A_DISCARD = 8           # + character: a face-down draft discard (2 players)
    A_GOLD = 16             # resource step: take 2 gold
    A_CARDS = 17            # resource step: draw cards
    A_KEEP = 18             # + kind: keep this drawn card (keeping one)
    A_RETURN = 48           # + kind: put this one back, keep the others (keeping two of three)
    A_BUILD = 78            # + kind
    A_INCOME = 108          # the character's income for its colour
    A_KILL = 109            # + character (Assassin)
    A_ROB = 117             # + character (Thief)
    A_SWAP = 125            # + player (Magician: exchange hands)
    A_REDRAW = 132          # + kind (Magician: put this card under the deck)
    A_REDRAW_DONE = 162     # Magician: draw as many as were put under
    A_DESTROY = 163         # + owner * 30 + kind (Warlord)
    A_LAB = 373             # + kind (Laboratory: discard it for 2 gold)
    A_SMITHY = 403          # Smithy: pay 2 gold, draw 3
    A_GRAVEYARD = 404       # Graveyard: pay 1 gold to take the destroyed district
    A_DECLINE = 405         # Graveyard: let it go under the deck
    A_END_TURN = 406
    # Labels only: how the others see a secret step (never legal).
    A_SEEN_REDRAW = 407     # a card went under the deck for the Magician
    A_SEEN_LAB = 408        # a card was discarded to the Laboratory
    NUM_ACTIONS = 409

cpdef enum Phase:
    PH_PICK = 0             # draft: take a character
    PH_DISCARD = 1          # draft (2 players): put one face down
    PH_RESOURCE = 2         # gold or cards
    PH_KEEP = 3             # which drawn cards to keep
    PH_MAIN = 4             # build, income, powers, unique districts, end the turn
    PH_REDRAW = 5           # Magician: more cards under the deck, or draw
    PH_GRAVEYARD = 6        # the Graveyard's owner: take the destroyed district back?
    PH_END = 7

cdef struct CTRules:
    uint8_t eight_districts     # 4-7 players: a city is complete at 8 districts
    uint8_t powers_before_resources # powers and unique districts also before the resource step

cdef struct CTState:
    uint64_t rng[4]             # the game's own chance (shuffles)
    CTRules rules
    uint8_t num_players
    uint8_t end_size            # districts in a complete city
    uint8_t phase
    uint8_t cur
    uint8_t crown
    uint8_t round_no            # from 1
    uint8_t first_picker        # the crowned player when this round's draft began
    # The draft: characters go into slots in a fixed order (see start_round).
    uint8_t n_slots
    uint8_t slot_char[MAX_SLOTS]    # NO_CHAR until filled
    uint8_t slot_owner[MAX_SLOTS]   # the holder, or NOBODY for a discard
    uint8_t slot_by[MAX_SLOTS]      # the player who filled it (and knows it), or NOBODY
    uint8_t faceup                  # face-up discards (bitmask of characters)
    uint8_t pool                    # characters still to hand out
    uint8_t step                    # the draft decision under way
    uint8_t obs_n[MAX_PLAYERS]      # sets each player was shown at its picks
    uint8_t obs_set[MAX_PLAYERS][2]
    uint8_t obs_slots[MAX_PLAYERS][2]   # the slots those characters went to
    uint8_t holder[NUM_CHARS]       # after the draft: player, or NOBODY
    # Calling.
    uint8_t call                    # the character called; 8 once all are done
    uint8_t revealed                # bitmask
    uint8_t killed
    uint8_t robbed
    uint8_t top_char[MAX_PLAYERS]   # highest character revealed this round + 1 (0: none)
    # The turn under way.
    uint8_t resource_done           # the resource step is over (gold or cards taken)
    uint8_t income_done
    uint8_t power_done
    uint8_t builds_left
    uint8_t lab_done
    uint8_t smithy_done
    uint8_t redraw_n
    uint8_t redraw_min
    uint8_t keep_left           # cards to keep of those drawn: 1, or 2 of 3
    uint8_t gy_card                 # the destroyed district the Graveyard may take
    uint8_t warlord                 # the player whose turn resumes after the Graveyard
    uint8_t first_done              # the first player to complete a city, or NOBODY
    int16_t gold[MAX_PLAYERS]
    uint8_t loc[NUM_DISTRICTS]
    uint8_t known[NUM_DISTRICTS]    # who knows this card is where it is (bit per player)
    uint8_t built_round[NUM_DISTRICTS]
    uint8_t deck[NUM_DISTRICTS]     # deck[0] is the bottom, deck[deck_n - 1] the top
    uint8_t deck_n
    uint8_t drawn[DRAWN_MAX]
    uint8_t drawn_n
    uint8_t hand_n[MAX_PLAYERS]
    uint8_t hand_kind[MAX_PLAYERS][NUM_DKINDS]
    uint32_t hand_kinds[MAX_PLAYERS]        # bitmask of kinds in hand
    uint8_t city[MAX_PLAYERS][NUM_DKINDS]   # card ids in the order built
    uint8_t city_n[MAX_PLAYERS]
    uint32_t city_kinds[MAX_PLAYERS]        # bitmask of kinds built


cdef void ct_init(CTState* s, int num_players, uint64_t seed, const CTRules* rules) noexcept nogil
cdef void ct_start_round(CTState* s) noexcept nogil
cdef int ct_legal_actions(const CTState* s, int16_t* out) noexcept nogil
cdef void ct_apply(CTState* s, int action) noexcept nogil
cdef bint ct_is_terminal(const CTState* s) noexcept nogil
cdef int ct_current_player(const CTState* s) noexcept nogil
cdef void ct_scores(const CTState* s, int* out) noexcept nogil
cdef void ct_returns(const CTState* s, double* out) noexcept nogil
cdef void ct_margins(const CTState* s, double* out) noexcept nogil
cdef int ct_observed_action(const CTState* s, int action, int observer) noexcept nogil
cdef void ct_resample(CTState* s, int player, uint64_t* rng) noexcept nogil
cdef bint ct_deal_characters(CTState* s, int player, uint64_t* rng) noexcept nogil
cdef int ct_check(const CTState* s) noexcept nogil
cdef int ct_income(const CTState* s, int player, int character) noexcept nogil
cdef int ct_destroy_price(const CTState* s, int owner, int kind) noexcept nogil
cdef bint ct_has(const CTState* s, int player, int kind) noexcept nogil
cdef void ct_hand_add(CTState* s, int player, int card, int known) noexcept nogil
cdef void ct_city_add(CTState* s, int player, int card) noexcept nogil
cdef uint8_t ct_seen_slots(const CTState* s, int slot) noexcept nogil
cdef void ct_draft_step(const CTState* s, int step, int* player, int* slot, bint* discard) noexcept nogil
