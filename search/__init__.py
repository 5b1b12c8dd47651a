"""Search over the engines: Information Set MCTS (MO and SO), PIMC, and baseline bots."""

from search.bots import BOT_KINDS, Bot, make_bot
from search.ismcts import CancelToken
from search.search import MoveStats, SearchConfig, SearchResult, search

__all__ = [
    "BOT_KINDS",
    "Bot",
    "CancelToken",
    "MoveStats",
    "SearchConfig",
    "SearchResult",
    "make_bot",
    "search",
]
