"""Citadels observations as terminal text: the board `regent play` prints, the one-line
summary of `regent watch`, and the context line of a hint (see `clients.text.GameText`)."""

from __future__ import annotations

from clients.text import player_name as _name
from regent.v1 import citadels_pb2

_pb = citadels_pb2


def _district(number: int) -> str:
    """`trading-post`, as move texts spell it."""
    return (
        _pb.CitadelsDistrict.Name(number)
        .removeprefix("CITADELS_DISTRICT_")
        .lower()
        .replace("_", "-")
    )


def _character(number: int) -> str:
    return _pb.CitadelsCharacter.Name(number).removeprefix("CITADELS_CHARACTER_").lower()


def _districts(numbers) -> str:
    return " ".join(_district(d) for d in numbers) or "-"


def _characters(numbers) -> str:
    return " ".join(_character(c) for c in numbers) or "-"


def phase(number: int) -> str:
    return _pb.CitadelsPhase.Name(number).removeprefix("CITADELS_PHASE_").lower()


def decision(obs: citadels_pb2.CitadelsObservation, me: int | None) -> str:
    """The pending decision, who takes it, and the context that is set."""
    d = obs.decision
    who = f" for {_name(d.player, me)}" if d.HasField("player") else ""
    details = []
    if d.called:
        details.append(f"the {_character(d.called)}'s turn")
    if d.builds_left:
        details.append(f"builds left {d.builds_left}")
    if d.drawn or d.drawn_hidden:
        hidden = f" (+{d.drawn_hidden} hidden)" if d.drawn_hidden else ""
        details.append(f"drawn {_districts(d.drawn)}{hidden}, keep {d.keep_left}")
    if d.redraw_count:
        details.append(f"{d.redraw_count} under the deck")
    if d.destroyed:
        details.append(f"{_district(d.destroyed)} destroyed by p{d.warlord}")
    extra = f" ({'; '.join(details)})" if details else ""
    return f"{phase(d.phase)}{who}{extra}"


def context(obs: citadels_pb2.CitadelsObservation) -> str:
    """`round 3, main`: where the game is, for a hint's header."""
    return f"round {obs.round}, {decision(obs, None)}"


def board(obs: citadels_pb2.CitadelsObservation, me: int | None = None) -> str:
    """The table as `me` sees it: gold, hands, cities, characters, the draft, the decision."""
    names = [_name(i, me) for i in range(len(obs.players))]
    width = max(len(n) for n in names)
    crown = f"crown {_name(obs.crown, me)}"
    lines = [f"Round {obs.round} · {crown} · deck {obs.deck_size}"]
    for i, (name, p) in enumerate(zip(names, obs.players, strict=True)):
        known = f" (known: {_districts(p.hand)})" if p.hand and i != obs.observer else ""
        chars = f" · {_characters(p.characters)}" if p.characters else ""
        lines.append(
            f"  {name:<{width}}  gold {p.gold} · hand {p.hand_size}{known}{chars} · "
            f"city: {_districts(p.city)}"
        )
    lines.append(f"Your hand: {_districts(obs.players[obs.observer].hand)}")
    draft = obs.draft
    parts = [f"face up {_characters(draft.face_up)}"] if draft.face_up else []
    if draft.shown:
        parts.append(f"shown {_characters(draft.shown[-1].characters)}")
    if draft.picks:
        parts.append(f"picked {_characters(draft.picks)}")
    if draft.discards:
        parts.append(f"put down {_characters(draft.discards)}")
    if parts:
        lines.append("Draft:     " + " · ".join(parts))
    if obs.revealed:
        shown = ", ".join(f"{_character(r.character)} {_name(r.player, me)}" for r in obs.revealed)
        lost = []
        if obs.killed:
            lost.append(f"killed {_character(obs.killed)}")
        if obs.robbed:
            lost.append(f"robbed {_character(obs.robbed)}")
        lines.append("Revealed:  " + shown + (f" ({', '.join(lost)})" if lost else ""))
    lines.append(f"Decision:  {decision(obs, me)}")
    return "\n".join(lines)


def summary(obs: citadels_pb2.CitadelsObservation) -> str:
    """One line: the round, everyone's gold and city size, and who decides what."""
    table = ", ".join(f"p{i} {p.gold}g {len(p.city)}d" for i, p in enumerate(obs.players))
    return f"Round {obs.round} · {table} · {decision(obs, None)}"
