#!/usr/bin/env node
// Plays a whole hosted match from Node.js: this script holds one human seat and plays it
// with the advisor's recommendations; the server's bots play the other seats.
//
//   node match.js --server 127.0.0.1:50051 [--game royal-cities|citadels] [--players N]
//                 [--bot SPEC] [--seed N] [--iterations N] [--deadline SECONDS]
//
// CreateMatch seats the script at seat 0 and the bot SPEC (default level:1) at the others,
// and the script prints the match id and the seat's secret token (`regent watch MATCH
// --token TOKEN` follows the match too). It then reads the seat's Watch stream, printing
// each event as it comes. When the seat is to move (GetView lists its legal moves), it asks
// AdvisorService.Recommend for the seat's observation (--iterations, default 200) and plays
// that move with Play, passing expected_move (the view's moves_played): a Play whose answer
// was lost (UNAVAILABLE) is sent again, and the server applies it at most once. At the end
// it prints the scores and returns. Exits 1 on a gRPC error, 2 on a usage error; --deadline
// (default 30 s) bounds each unary call.

import {
  call,
  commandLine,
  connect,
  describeError,
  enumNames,
  enumNumber,
  fail,
  grpc,
  seconds,
  wholeNumber,
} from './regent.js';

const USAGE =
  'usage: node match.js --server HOST:PORT [--game royal-cities|citadels] [--players N] ' +
  '[--bot SPEC] [--seed N] [--iterations N] [--deadline SECONDS]';
/** Play is sent at most this many times more after UNAVAILABLE. */
const RETRIES = 2;

const args = commandLine(USAGE, {
  server: { type: 'string' },
  game: { type: 'string', default: 'royal-cities' },
  players: { type: 'string', default: '2' },
  bot: { type: 'string', default: 'level:1' },
  seed: { type: 'string', default: '1' },
  iterations: { type: 'string', default: '200' },
  deadline: { type: 'string', default: '30' },
});
if (!args.server) fail(USAGE);
const players = Number(wholeNumber('players', args.players, 1));
const seed = wholeNumber('seed', args.seed, 0);
const iterations = wholeNumber('iterations', args.iterations, 1);
const deadline = seconds('deadline', args.deadline);
const gameName = `GAME_${args.game.toUpperCase().replaceAll('-', '_')}`;
const games = enumNames('Game').filter((name) => name !== 'GAME_UNSPECIFIED');
if (!games.includes(gameName)) {
  const known = games.map((name) => name.slice(5).toLowerCase().replaceAll('_', '-'));
  fail(`--game must be one of ${known.join(', ')}, not "${args.game}"`);
}

const PLAYING = enumNumber('MatchStatus', 'MATCH_STATUS_PLAYING');
const matches = connect('MatchService', args.server);
const advisor = connect('AdvisorService', args.server);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Play `request` (which carries expected_move, so sending it again is safe); the new view. */
async function play(request) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return (await call(matches, 'Play', request, deadline)).view;
    } catch (err) {
      if (err.code !== grpc.status.UNAVAILABLE || attempt >= RETRIES) throw err;
    }
    await sleep(200 * 2 ** attempt);
  }
}

function eventLine(event) {
  const who = event.seat === undefined ? 'game' : `p${event.seat}`;
  const what = event.resignedSeat === undefined ? event.move?.text : 'resigned';
  return `  ${String(event.sequence).padStart(4)}  ${who}: ${what ?? '(no move)'}`;
}

async function run() {
  const seats = [{ player: { case: 'humanName', value: 'node' } }];
  for (let i = 1; i < players; i += 1) seats.push({ player: { case: 'bot', value: args.bot } });
  const game = enumNumber('Game', gameName);
  const created = await call(matches, 'CreateMatch', { game, seats, seed }, deadline);
  const { matchId } = created;
  const { seat, token } = created.tokens[0];
  process.stdout.write(`match ${matchId}, seat ${seat}, token ${token}\n`);

  // The seat's events from the start of the match; the stream ends with the match.
  const events = matches.Watch({ matchId, token })[Symbol.asyncIterator]();
  let view = await call(matches, 'GetView', { matchId, token }, deadline);
  let played = 0;
  while (view.status === PLAYING) {
    if (view.legalMoves.length > 0) {
      const request = { observation: view.observation, budget: { iterations }, seed };
      const { report } = await call(advisor, 'Recommend', request, deadline);
      const move = { id: report.move.id, text: report.move.text };
      view = await play({ matchId, token, move, expectedMove: view.movesPlayed });
      played += 1;
    } else {
      // Not the seat's move: wait for the next event (a bot's move, or the end).
      const next = await events.next();
      if (next.done) break;
      process.stdout.write(`${eventLine(next.value.event)}\n`);
      view = await call(matches, 'GetView', { matchId, token }, deadline);
    }
  }
  for (let next = await events.next(); !next.done; next = await events.next()) {
    process.stdout.write(`${eventLine(next.value.event)}\n`);
  }
  view = await call(matches, 'GetView', { matchId, token }, deadline);
  process.stdout.write(`you played ${played} moves; the match is over after ${view.movesPlayed}\n`);
  process.stdout.write(`scores: ${view.scores.join(' ')}\nreturns: ${view.returns.join(' ')}\n`);
}

try {
  await run();
} catch (err) {
  fail(describeError(err), 1);
} finally {
  matches.close();
  advisor.close();
}
