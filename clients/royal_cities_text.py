"""Royal Cities observations as terminal text: the board `regent play` prints, the one-line
summary of `regent watch`, and the context line of a hint (see `clients.text.GameText`)."""

from __future__ import annotations

from collections.abc import Sequence

from clients.text import player_name as _name
from engine.royal_cities.cards import EFFECTS
from regent.v1 import royal_cities_pb2

_pb = royal_cities_pb2


def _colour(number: int) -> str:
    return _pb.RoyalCitiesColour.Name(number).removeprefix("ROYAL_CITIES_COLOUR_").lower()


def _phase(number: int) -> str:
    """`first build` for ROYAL_CITIES_PHASE_FIRST_BUILD."""
    name = _pb.RoyalCitiesPhase.Name(number).removeprefix("ROYAL_CITIES_PHASE_")
    return name.lower().replace("_", " ")


def _card(card: royal_cities_pb2.RoyalCitiesCard) -> str:
    """The engine's name of a card, as move texts spell it: `yellow-2`."""
    return f"{_colour(card.colour)}-{card.value}"


def _cards(cards: Sequence[royal_cities_pb2.RoyalCitiesCard]) -> str:
    return " ".join(_card(c) for c in cards) or "-"


def _cities(cities: Sequence[royal_cities_pb2.RoyalCitiesCity]) -> str:
    """The non-empty Cities, bottom card first: `red: red-1 white-3 · blue: blue-2`."""
    built = [
        f"{_colour(i + 1)}: {_cards(city.cards)}" for i, city in enumerate(cities) if city.cards
    ]
    return " · ".join(built) or "-"


def _decision(obs: royal_cities_pb2.RoyalCitiesObservation, me: int | None) -> str:
    """The pending decision, who takes it, and the context that is set."""
    d = obs.decision
    who = f" for {_name(d.player, me)}" if d.HasField("player") else ""
    details = []
    if d.HasField("effect"):
        details.append(f"effect {EFFECTS[d.effect]}")
    if d.from_revolt:
        details.append("after a Revolt")
    if d.knight_from:
        details.append(f"Knight's white card from {d.knight_from}")
    if d.power:
        details.append(f"power {d.power}")
    if d.HasField("min_card"):
        details.append(f"lowest card allowed {_card(d.min_card)}")
    if d.taken:
        details.append(f"taken {d.taken}")
    if d.drawn or d.drawn_hidden:
        hidden = f" (+{d.drawn_hidden} hidden)" if d.drawn_hidden else ""
        details.append(f"drawn {_cards(d.drawn)}{hidden}")
    if d.selection:
        chosen = ", ".join(f"{_card(s.card)} to {_colour(s.city)}" for s in d.selection)
        details.append(f"chosen {chosen}")
    if d.passes:
        details.append(f"passing {_cards(d.passes)}")
    if d.HasField("first_build"):
        details.append(f"first build {_card(d.first_build)}")
    if d.tax_left:
        details.append(f"Cities to tax {d.tax_left}")
    if d.taxed:
        details.append("taxed " + " ".join(_colour(c) for c in d.taxed))
    if d.regent_draws:
        details.append(f"Regent draws {d.regent_draws}")
    extra = f" ({'; '.join(details)})" if details else ""
    return f"{_phase(d.phase)}{who}{extra}"


def board(obs: royal_cities_pb2.RoyalCitiesObservation, me: int | None = None) -> str:
    """The position as `me` sees it: Season, VP, hands, the Market, every City, the decision."""
    names = [_name(i, me) for i in range(len(obs.players))]
    width = max(len(n) for n in [*names, "Regent"])
    status = []
    for name, p in zip(names, obs.players, strict=True):
        flags = [flag for flag, on in (("hero up", p.hero_up), ("purchased", p.purchased)) if on]
        status.append(f"{name} {p.vp}" + (f" ({', '.join(flags)})" if flags else ""))
    if obs.HasField("regent"):
        status.append(f"Regent {obs.regent.vp}")
    hands = []
    for i, (name, p) in enumerate(zip(names, obs.players, strict=True)):
        known = f" (known: {_cards(p.hand)})" if p.hand and i != obs.observer else ""
        hands.append(f"{name} {p.hand_size}{known}")
    lines = [
        f"Season {obs.season} of {obs.num_seasons}",
        "VP:        " + " · ".join(status),
        "Hands:     " + " · ".join(hands),
        f"Your hand: {_cards(obs.players[obs.observer].hand)}",
        f"Market:    {_cards(obs.market)}   (pile {obs.pile_size}, reserve {obs.reserve_size}, "
        f"discard {len(obs.discard)})",
        "Cities, bottom card first:",
    ]
    lines.extend(
        f"  {name:<{width}}  {_cities(p.cities)}"
        for name, p in zip(names, obs.players, strict=True)
    )
    if obs.HasField("regent"):
        lines.append(f"  {'Regent':<{width}}  {_cities(obs.regent.cities)}")
    lines.append(f"Decision:  {_decision(obs, me)}")
    return "\n".join(lines)


def summary(obs: royal_cities_pb2.RoyalCitiesObservation) -> str:
    """One line: the Season, everyone's VP, and who decides what."""
    vp = [f"p{i} {p.vp}" for i, p in enumerate(obs.players)]
    if obs.HasField("regent"):
        vp.append(f"Regent {obs.regent.vp}")
    return f"Season {obs.season}/{obs.num_seasons} · VP {', '.join(vp)} · {_decision(obs, None)}"


def context(obs: royal_cities_pb2.RoyalCitiesObservation) -> str:
    """`Season 2 of 4, turn`: where the game is, for a hint's header."""
    return f"Season {obs.season} of {obs.num_seasons}, {_phase(obs.decision.phase)}"
