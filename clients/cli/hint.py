"""`regent hint FILE`: the recommended move of an observation (protobuf JSON), from a server
or from a search in this process (`--local`) with the checks and defaults the server applies.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import engine
from clients.cli.printing import game_text
from clients.cli.shared import BadInput, count, read_observation, report_failure, seconds
from clients.client import RegentClient, RegentError
from clients.text import player_name
from convert import observation_from_proto, observer_of
from convert.reports import bot_report, report
from regent.v1 import advisor_pb2, common_pb2
from search.bots import (
    BudgetClashError,
    budget_from_spec,
    hint_config,
    is_level,
    make_bot,
    search_config,
)
from search.explain import explain
from search.search import search
from server.limits import ServerLimits


def add_hint(commands: argparse._SubParsersAction) -> None:
    """The `hint` subcommand."""
    hint = commands.add_parser("hint", help="the recommended move of an observation (JSON)")
    hint.add_argument("file", help="a regent.v1.Observation in protobuf JSON, or - for stdin")
    where = hint.add_mutually_exclusive_group()
    where.add_argument(
        "--server", default="127.0.0.1:50051", metavar="HOST:PORT", help="the service"
    )
    where.add_argument("--local", action="store_true", help="search in this process")
    hint.add_argument(
        "--iterations",
        metavar="N",
        type=count,
        default=0,
        help="search iterations (0: the server's default)",
    )
    hint.add_argument(
        "--seconds", metavar="S", type=seconds, default=0.0, help="search time (0: no limit)"
    )
    hint.add_argument(
        "--threads",
        metavar="N",
        type=count,
        default=0,
        help="search threads (0: the server's default)",
    )
    hint.add_argument("--seed", metavar="N", type=count, default=0, help="search seed (default: 0)")
    hint.add_argument(
        "--bot",
        metavar="SPEC",
        default="",
        help="search bot spec, e.g. mo-ismcts:c=0.7 (default: the game's strongest measured bot "
        "for its player count)",
    )
    hint.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the recommended move of an observation in protobuf JSON, from a server or
    from a search in this process (`--local`)."""
    try:
        observation = read_observation(args.file)
        if args.local:
            result = _local_report(observation, args)
        else:
            with RegentClient(args.server) as client:
                result = client.recommend(
                    observation,
                    iterations=args.iterations,
                    seconds=args.seconds,
                    threads=args.threads,
                    seed=args.seed,
                    bot=args.bot,
                )
    except (BadInput, RegentError) as err:
        return report_failure("hint", err, None if args.local else args.server, "use --local")
    print(format_report(result, observation))
    return 0


def _local_report(
    observation: advisor_pb2.Observation, args: argparse.Namespace
) -> common_pb2.SearchReport:
    """Search in this process with the checks and defaults the server applies."""
    try:
        obs = observation_from_proto(observation)  # its paths name the game's field
    except engine.InvalidObservationError as err:
        raise BadInput(f"observation.{err.field}: {err.reason}") from None
    try:
        state = engine.state_from_observation(obs, args.seed)
    except engine.InvalidObservationError as err:  # the engine's paths start inside the game
        game = observation.WhichOneof("game")
        raise BadInput(f"observation.{game}.{err.field}: {err.reason}") from None
    if state.is_terminal():
        raise BadInput("the game is over: there is no move to advise")
    game, observer = observer_of(observation)
    if state.current_player != observer:
        raise BadInput(
            f"observation.{game}.observer: the observer is player {observer}, but player "
            f"{state.current_player} is to act: advice is for the player to act"
        )
    spec = args.bot or ServerLimits().bot_for(game, state.num_players)
    budget = {"iterations": args.iterations, "seconds": args.seconds, "threads": args.threads}
    try:  # the bot's own budget parts (a level's all), the flags' elsewhere, else the defaults
        budget |= budget_from_spec(
            spec, args.iterations, args.seconds, args.threads, game, state.num_players,
            named=bool(args.bot),
        )  # fmt: skip
        if is_level(spec) and search_config(spec, game, state.num_players) is None:
            return bot_report(state, make_bot(spec, game, state.num_players), args.seed)
        if not budget["iterations"] and not budget["seconds"]:
            budget["iterations"] = ServerLimits.default_iterations
        budget["threads"] = budget["threads"] or ServerLimits.default_threads
        config = hint_config(spec, game, state.num_players, seed=args.seed, **budget)
    except BudgetClashError as err:
        raise BadInput(f"budget.{err.option}: {err}") from None
    except (ValueError, TypeError) as err:
        raise BadInput(f"bot: {err}") from None
    result = search(state, config)
    return report(result, explain(state, result))


def format_report(result: common_pb2.SearchReport, observation: advisor_pb2.Observation) -> str:
    """The recommended move, a table of the alternatives and the principal variation."""
    text, obs = game_text(observation)
    width = max([len("move"), *(len(m.move.text) for m in result.moves)])
    lines = [
        f"Recommended move: {result.move.text}",
        f"  for p{obs.observer}, {text.context(obs)}; {result.iterations} iterations in "
        f"{result.elapsed_seconds:.2f} s",
        "",
        f"  {'move':<{width}}  {'visits':>7}  {'win %':>6}  {'reward':>6}",
    ]
    # With show=K the K moves given their share have win chances worth showing; the others'
    # are by-products of where the search spent its visits (MoveStatistics.estimated).
    some = any(m.estimated for m in result.moves)
    lines.extend(
        f"  {m.move.text:<{width}}  {m.visits:>7}  "
        f"{f'{100 * m.win_chance:.1f}' if m.estimated or not some else '-':>6}  "
        f"{m.mean_reward:>6.3f}"
        for m in result.moves
    )
    if some and not all(m.estimated for m in result.moves):
        lines += ["", "  -: too few visits to estimate that move's win chance"]
    me = obs.observer
    if result.steps:
        line = [f"{_who(step.player, me)} {step.move}" for step in result.steps]
    else:
        line = list(result.principal_variation)
    lines += ["", "Principal variation: " + (", ".join(line) or "-")]
    if result.reasons:
        lines += ["Why: " + "; ".join(reason_text(r, me) for r in result.reasons)]
    if result.beliefs:
        lines += ["", *beliefs_table(result.beliefs, me)]
    return "\n".join(lines)


def _who(player: int, me: int) -> str:
    return "?" if player < 0 else player_name(player, me)


def reason_text(reason: common_pb2.Reason, me: int) -> str:
    """One reason in words (the kinds of proto/regent/v1/common.proto's Reason)."""
    who, share = _who(reason.player, me), f"{100 * reason.value:.0f}%"
    if reason.kind == "expects":
        return f"{who} expect{'' if who == 'you' else 's'} {reason.value:.1f} {reason.item}"
    if reason.kind == "secures":
        return f"secures {reason.item} at the next scoring ({share} of worlds)"
    if reason.kind == "fears":
        return f"fear the {reason.item} (held by another player: {share}, most likely {who})"
    return f"{reason.kind} {reason.item} {reason.value:g} ({who})"


def beliefs_table(beliefs: Sequence[common_pb2.Belief], me: int) -> list[str]:
    """Who probably holds what: a row per player ("nobody" last), a column per item, in %."""
    items = list(dict.fromkeys(b.item for b in beliefs))
    players = sorted({b.player for b in beliefs}, key=lambda p: (p < 0, p))
    chance = {(b.player, b.item): b.chance for b in beliefs}
    width = max(len(item) for item in items)
    names = {p: "nobody" if p < 0 else player_name(p, me) for p in players}
    first = max(*(len(name) for name in names.values()))
    header = "  ".join(f"{item:>{width}}" for item in items)
    rows = ["Who probably holds what (% of the search's worlds):", f"  {'':<{first}}  {header}"]
    for p in players:
        cells = [chance.get((p, item)) for item in items]
        rows.append(
            f"  {names[p]:<{first}}  "
            + "  ".join(f"{'-' if c is None else f'{100 * c:.0f}':>{width}}" for c in cells)
        )
    return rows
