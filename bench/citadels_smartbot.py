"""SmartBot, an outside opponent for Citadels: the best bot of Antoine-FdRg/citadels (a Java
project, 2024), rebuilt from its published description for this engine's moves. Its report
calls it a rusher: it builds the cheapest districts it can, as fast as it can. Not shipped
with Regent; it enters a tournament as a bot of your own:

    regent tournament --game citadels --players 4 --gauntlet new --games 400 --seed 1 \\
        --bot new=mo-ismcts:seconds=0.25,threads=1,rank_weight=0.5,infer=256 \\
        --bot smart=python:bench.citadels_smartbot:SmartBot --out ct4-smartbot

What it does, decision by decision (its own words in the project's Javadoc and report):
- **Draft**: the Magician when its hand has one card or none; else the character whose
  colour it has most of in its city (King noble, Bishop religious, Merchant trade, Warlord
  military), the next colour if that one is gone; else a random one. Never the same
  character four rounds in a row.
- **Gold or cards**: cards when its hand is empty, or when, after building what it can now,
  it could still pay for the cheapest district left in its hand; else gold.
- **Which card to keep**: the cheapest drawn (and the dearest put back, keeping two of three).
- **What to build**: the cheapest district of its character's colour it can pay for, else
  the cheapest. The Architect finishes its city when it can, else builds a unique district,
  else one of a colour its city lacks, else the cheapest.
- **Assassin**: the Architect, Merchant or King (in random order), else any.
  **Thief**: the Architect or Merchant, else the first character it may rob.
  **Magician**: swaps hands with the largest hand if its own is smaller, else puts back
  every card that costs more than 2. **Warlord**: the cheapest district it can pay to
  destroy in the largest city of another player. Between players tied for the largest city
  or hand, the original takes the first of its list, the lowest seat; `SmartBot` draws one
  at random, `SeatTies` keeps the original's order.
- **Unique districts**: the Smithy with more than 3 gold and fewer than 2 cards in hand (or
  a city smaller than the others' mean); the Laboratory on a 1-gold card not of its
  character's colour; the Graveyard for a district that costs less than 3.

It reads only its own observation (the tournament gives it a world of its information), and
its random choices come from each move's seed. Where the description leaves an order open
(income, the Smithy, the Laboratory), it builds before income only when it could pay for a
district before it, as the original's turn does."""

from __future__ import annotations

import random
from typing import Any

from engine.citadels.cards import CHARACTERS, COLOURS, DISTRICTS
from search.ismcts import CancelToken

COST = {name: cost for name, _, cost, _ in DISTRICTS}
COLOUR = {name: COLOURS[colour] for name, colour, _, _ in DISTRICTS}
#: The colour each character is paid for (the original's "common characters").
TARGET = {"king": "noble", "bishop": "religious", "merchant": "trade", "warlord": "military"}
#: The same character this many rounds in a row, and it picks another.
MOST_IN_A_ROW = 3
#: Whom its Assassin kills (in a random order), and its Thief robs (in this order).
KILL = ("architect", "merchant", "king")
ROB = ("architect", "merchant")


class SmartBot:
    """One seat of one game: it remembers its own picks, for the rule on repeats. Between
    players tied for the largest city or hand it draws one at random."""

    #: Ties between players go to the lowest seat, as in the original (`SeatTies`).
    seat_ties = False

    def __init__(self, game: str = "citadels", players: int = 4) -> None:
        if game != "citadels":
            raise ValueError(f"SmartBot plays citadels, not {game}")
        self.last_pick: str | None = None
        self.in_a_row = 0

    def choose(self, state: Any, seed: int, cancel: CancelToken | None = None) -> int:
        """The move, from the observation of the player to move."""
        me = state.current_player
        turn = _Turn(state.observation(me), me, random.Random(seed), self.seat_ties)
        moves = {state.action_to_string(a): a for a in state.legal_actions()}
        move = self._pick(turn, moves) if turn.phase == "pick" else turn.move(moves)
        return moves[move]

    def _pick(self, turn: _Turn, moves: dict[str, int]) -> str:
        avoid = self.last_pick if self.in_a_row >= MOST_IN_A_ROW else None
        offered = [m.split()[1] for m in moves if m.split()[1] != avoid] or [
            m.split()[1] for m in moves
        ]
        choice = None
        if len(turn.hand) <= 1 and "magician" in offered:
            choice = "magician"
        for colour in turn.colours_by_count():
            if choice is None:
                choice = next((c for c in offered if TARGET.get(c) == colour), None)
        if choice is None:
            choice = turn.rng.choice(offered)
        self.in_a_row = self.in_a_row + 1 if choice == self.last_pick else 1
        self.last_pick = choice
        return f"pick {choice}"


class SeatTies(SmartBot):
    """SmartBot as the original breaks ties: its Warlord and Magician take the first player
    of their list, the lowest seat. A field of them makes seat 0 everyone's target."""

    seat_ties = True


class _Turn:
    """What the bot sees at one decision, and its rules for each kind of decision."""

    def __init__(self, obs: Any, me: int, rng: random.Random, seat_ties: bool) -> None:
        self.obs, self.me, self.rng, self.seat_ties = obs, me, rng, seat_ties
        self.phase = obs.decision.phase
        mine = obs.players[me]
        self.gold, self.hand, self.city = mine.gold, list(mine.hand), list(mine.city)
        self.character = obs.decision.called if obs.decision.player == me else None

    def colours_by_count(self) -> list[str]:
        """Its city's colours, the most built first (ties: the first built first)."""
        counts: dict[str, int] = {}
        for name in self.city:
            counts[COLOUR[name]] = counts.get(COLOUR[name], 0) + 1
        return sorted(counts, key=lambda colour: -counts[colour])

    def move(self, moves: dict[str, int]) -> str:
        """Its move at any decision but the draft's picks."""
        if self.phase == "resource" and "cards" in moves:
            return self._resource()
        if self.phase == "keep":
            return self._keep(moves)
        if self.phase == "graveyard":
            take = COST[self.obs.decision.destroyed] < 3 and self.gold > 0
            return "graveyard take" if take else "graveyard decline"
        if self.phase == "redraw":
            return next((m for m in moves if m.startswith("redraw ") and _dear(m)), "redraw done")
        if self.phase == "main":
            return self._main(moves)
        return self.rng.choice(sorted(moves))

    # -- the resource and the keep ------------------------------------------------------

    def _buildable(self, gold: int, hand: list[str]) -> list[str]:
        return [c for c in hand if c not in self.city and COST[c] <= gold]

    def _choose_card(self, gold: int, hand: list[str]) -> str | None:
        """The card it means to build: the cheapest of its character's colour if it can pay
        for it, else the cheapest not in its city (paid for or not)."""
        new = sorted((c for c in hand if c not in self.city), key=COST.__getitem__)
        target = TARGET.get(self.character or "")
        own = [c for c in new if COLOUR[c] == target]
        if own and COST[own[0]] <= gold:
            return own[0]
        return new[0] if new else None

    def _income(self, city: list[str]) -> int:
        """What its character's colour pays for `city` (the School of Magic counts)."""
        target = TARGET.get(self.character or "")
        return sum(1 for c in city if COLOUR[c] == target or c == "school-of-magic")

    def _resource(self) -> str:
        """Gold or cards, as the original decides after the builds and income it would have
        made first (its turn builds before it draws; this engine's turn draws first)."""
        gold, hand, city = self.gold, list(self.hand), list(self.city)
        if not hand:
            return "cards"
        if self.character != "architect":
            income_first = not self._buildable(gold, hand)
            if income_first:
                gold += self._income(city)
                if not self._buildable(gold, hand):
                    return "gold"
            card = self._choose_card(gold, hand)  # one it can pay for, since some is
            assert card is not None
            gold -= COST[card]
            hand.remove(card)
            city.append(card)
            if not income_first:
                gold += self._income(city)
        cheapest = self._choose_card(gold, hand)
        if cheapest is None:
            return "cards"
        return "gold" if gold < COST[cheapest] else "cards"

    def _keep(self, moves: dict[str, int]) -> str:
        kept = [m for m in moves if m.startswith("keep ")]
        if kept:
            return min(kept, key=lambda m: COST[m.split()[1]])
        return max(moves, key=lambda m: COST[m.split()[1]])

    # -- the turn ------------------------------------------------------------------------

    def _main(self, moves: dict[str, int]) -> str:
        power = self._power(moves)
        if power is not None:
            return power
        if "smithy" in moves and self._wants_smithy():
            return "smithy"
        builds = [m.split()[1] for m in moves if m.startswith("build ")]
        if "income" in moves and not (builds and self.character != "architect"):
            return "income"
        build = self._build(builds)
        if build is not None:
            return f"build {build}"
        if "income" in moves:
            return "income"
        lab = self._laboratory(moves)
        if lab is not None:
            return lab
        return "end turn" if "end turn" in moves else self.rng.choice(sorted(moves))

    def _build(self, builds: list[str]) -> str | None:
        if not builds:
            return None
        if self.character == "architect":
            return self._architect_build(builds)
        card = self._choose_card(self.gold, self.hand)
        return card if card in builds else None

    def _architect_build(self, builds: list[str]) -> str:
        by_cost = sorted(builds, key=COST.__getitem__)
        needed = self.obs.rules.eight_districts and self.obs.num_players >= 4
        to_finish = (8 if needed else 7) - len(self.city)
        if len(self.city) >= 5 and len(self.hand) >= 3 and to_finish <= len(by_cost):
            return by_cost[0]
        unique = [c for c in builds if COLOUR[c] == "unique"]
        if unique:
            return unique[0]
        lacking = [c for c in by_cost if COLOUR[c] not in {COLOUR[d] for d in self.city}]
        return lacking[0] if lacking else by_cost[0]

    def _wants_smithy(self) -> bool:
        others = [len(p.city) for i, p in enumerate(self.obs.players) if i != self.me]
        late = sum(others) / len(others) > len(self.city)
        return self.gold > 3 and (len(self.hand) < 2 or late)

    def _laboratory(self, moves: dict[str, int]) -> str | None:
        target = TARGET.get(self.character or "")
        for move in moves:
            if move.startswith("laboratory "):
                card = move.split()[1]
                if COST[card] == 1 and COLOUR[card] != target:
                    return move
        return None

    def _power(self, moves: dict[str, int]) -> str | None:
        """Its character's power, the first thing it does in its turn, or None."""
        gone = set(self.obs.draft.face_up) | {self.character}
        kills = [m.split()[1] for m in moves if m.startswith("kill ")]
        if kills:
            order = list(KILL)
            self.rng.shuffle(order)
            chosen = next((c for c in order if c in kills and c not in gone), None)
            others = [c for c in kills if c not in gone] or kills
            return f"kill {chosen or self.rng.choice(others)}"
        robs = [m.split()[1] for m in moves if m.startswith("rob ")]
        if robs:
            open_ = [c for c in robs if c not in gone] or robs
            chosen = next((c for c in ROB if c in open_), None)
            return f"rob {chosen or sorted(open_, key=CHARACTERS.index)[0]}"
        swaps = [m for m in moves if m.startswith("swap ")]
        if swaps or any(m.startswith("redraw ") for m in moves):
            return self._magician(moves, swaps)
        words = [m.split() for m in moves if m.startswith("destroy ")]
        destroys = [(_seat(p), card) for _, p, card in words if _seat(p) != self.me]
        if destroys:
            size = {p: len(self.obs.players[p].city) for p, _ in destroys}
            victim = self._most(size)
            card = min((c for p, c in destroys if p == victim), key=COST.__getitem__)
            return f"destroy p{victim} {card}"
        return None

    def _most(self, values: dict[int, int]) -> int:
        """The player with the most: of those tied, the lowest seat (the original's list
        order) with `seat_ties`, else one drawn from the move's seed."""
        top = max(values.values())
        tied = sorted(p for p, v in values.items() if v == top)
        return tied[0] if self.seat_ties else self.rng.choice(tied)

    def _magician(self, moves: dict[str, int], swaps: list[str]) -> str | None:
        others = [_seat(m.split()[1]) for m in swaps]
        hands = {p: self.obs.players[p].hand_size for p in others}
        if hands:
            largest = self._most(hands)
            if len(self.hand) < hands[largest]:
                return f"swap p{largest}"
        return next((m for m in moves if m.startswith("redraw ") and _dear(m)), None)


def _seat(word: str) -> int:
    """The seat a move names (`p2` -> 2)."""
    return int(word[1:])


def _dear(move: str) -> bool:
    """Whether a redraw puts back a card that costs more than 2."""
    card = move.split()[1]
    return card in COST and COST[card] > 2
