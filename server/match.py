"""A hosted match in memory: its seats, its deal and the events played since, rebuilt from
its stored log (the engines are deterministic). What the service keeps of a match and
nothing of how it is served."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field

import engine
from engine.interface import State
from regent.v1 import matches_pb2
from search.bots import Bot, make_bot
from server.store import (
    EXPIRE,
    EXPIRED,
    FINISHED,
    MOVE,
    RESIGN,
    RESIGNED,
    LoggedMove,
    MatchRecord,
    Progress,
    StoreError,
)

PLAYING = matches_pb2.MATCH_STATUS_PLAYING


def token_hash(token: str) -> str:
    """What the database keeps of a seat token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Event:
    """One move (or a resignation, or the expiry) and the state after it."""

    sequence: int
    seat: int | None
    action: int | None
    #: How each seat sees the move: the action, HIDDEN, UNSEEN, or a label action (such
    #: as "(a card under the deck)") that shows what happened but not the card.
    seen_as: list[int]
    after: State
    resigned_seat: int | None = None
    expired: bool = False
    #: The event as each seat's watchers receive it, made once for them all.
    messages: dict[int, matches_pb2.MatchEvent] = field(default_factory=dict)


@dataclass
class Match:
    id: str
    game: str
    seats: list[str]  # "human:NAME" or "bot:SPEC"
    bots: dict[int, Bot]
    #: sha256 of each human seat's token -> the seat.
    token_hashes: dict[str, int]
    initial: State
    seed: int
    public: bool = False
    events: list[Event] = field(default_factory=list)
    resigned: list[int] = field(default_factory=list)
    forced_returns: list[float] | None = None
    expired: bool = False
    #: Held while a move is checked, stored and applied (never across a wait for watchers).
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task | None = None

    @property
    def state(self) -> State:
        """The true state now (never to be changed in place)."""
        return self.events[-1].after if self.events else self.initial

    @property
    def finished(self) -> bool:
        return self.forced_returns is not None or self.expired or self.state.is_terminal()

    @property
    def status(self) -> matches_pb2.MatchStatus:
        if self.expired:
            return matches_pb2.MATCH_STATUS_EXPIRED
        return matches_pb2.MATCH_STATUS_FINISHED if self.finished else PLAYING

    @property
    def bot_turn(self) -> bool:
        return not self.finished and self.state.current_player in self.bots

    def returns(self) -> list[float]:
        return self.forced_returns if self.forced_returns is not None else self.state.returns()

    def state_after(self, moves: int) -> State:
        """The true state after the first `moves` events."""
        return self.events[moves - 1].after if moves else self.initial

    def progress(self, event: Event) -> Progress:
        """What the match's row says once `event` is played."""
        if event.expired:
            return Progress(EXPIRED, None, False)
        if event.resigned_seat is not None:
            return Progress(RESIGNED, None, False)
        if event.after.is_terminal():
            return Progress(FINISHED, None, False)
        seat = event.after.current_player
        return Progress(None, seat, seat in self.bots)

    def next_event(self, move: LoggedMove) -> Event:
        """The event a logged move makes (the match is unchanged)."""
        state = self.state
        if move.kind == RESIGN:
            return Event(move.number, move.seat, None, [], state, resigned_seat=move.seat)
        if move.kind == EXPIRE:
            return Event(move.number, None, None, [], state, expired=True)
        assert move.action is not None, "a logged move has its action"
        seen = [state.observed_action(move.action, s) for s in range(state.num_players)]
        after = state.clone()
        after.apply_action(move.action)
        return Event(move.number, move.seat, move.action, seen, after)

    def push(self, event: Event) -> None:
        self.events.append(event)
        if event.resigned_seat is not None:
            self.resigned.append(event.resigned_seat)
            self.forced_returns = _returns_after_resignation(self.state, self.resigned)
        self.expired = self.expired or event.expired


def rebuild(record: MatchRecord) -> Match:
    """A stored match, replayed from its deal; StoreError if its log does not replay."""
    rules = engine.game(record.game).rules_class.from_json(record.rules)
    match = Match(
        id=record.id,
        game=record.game,
        seats=record.seats,
        bots={
            i: make_bot(s[4:], record.game, len(record.seats))
            for i, s in enumerate(record.seats)
            if s.startswith("bot:")
        },
        token_hashes=record.token_hashes,
        initial=engine.new_game(record.game, len(record.seats), seed=record.seed, rules=rules),
        seed=record.seed,
        public=record.public,
    )
    for move in record.log:
        if match.finished or (move.kind == MOVE and move.action not in match.state.legal_actions()):
            raise StoreError(f"match {record.id}: logged move {move.number} does not replay")
        match.push(match.next_event(move))
    return match


def _returns_after_resignation(state: State, resigned: list[int]) -> list[float]:
    """The resigned seats lose; the best of the others by score, then cards built, share."""
    scores = state.scores()
    others = [p for p in range(state.num_players) if p not in resigned]
    if not others:
        return [0.0] * state.num_players
    built = [state.cards_built(p) for p in range(state.num_players)]
    best = max((scores[p], built[p]) for p in others)
    winners = [p for p in others if (scores[p], built[p]) == best]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(state.num_players)]
