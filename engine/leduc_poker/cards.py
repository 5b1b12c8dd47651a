"""The Leduc poker cards, as written in moves and JSON: J < Q < K, two of each (the two
suits never matter, so a card is named by its rank)."""

from __future__ import annotations

from engine.registry import Card

#: Card names by id; the id is the rank.
CARDS = ("J", "Q", "K")
#: Cards of each rank in the deck.
COPIES = 2


def parse_card(name: str) -> int:
    """The id of `J`, `Q` or `K` (any case); ValueError for anything else."""
    key = name.strip().upper() if isinstance(name, str) else None
    if key not in CARDS:
        raise ValueError(f"unknown card {name!r} (one of {', '.join(CARDS)})")
    return CARDS.index(key)


def card_table() -> tuple[Card, ...]:
    """Every card, in rank order, two copies each."""
    return tuple(Card(name, COPIES, {"rank": rank + 1}) for rank, name in enumerate(CARDS))
