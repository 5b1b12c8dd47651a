#!/usr/bin/env node
// Asks a Regent server for the move to play from one player's observation.
//
//   node recommend.js --server 127.0.0.1:50051 --observation FILE.json [--iterations N]
//
// FILE.json is a regent.v1.Observation in protobuf's JSON mapping: field names in
// lowerCamelCase (what google.protobuf.json_format.MessageToJson writes, as the files
// in examples/) or as in the .proto files, enums by name or number. Prints the recommended
// move, then the most visited moves with their visits and win chance. On a
// gRPC error, prints the status code and message to stderr and exits 1; on a
// usage or input error, exits 2. --deadline (default 30 s) bounds the call;
// without --iterations the server's default budget applies.

import { readFileSync } from 'node:fs';

import {
  call,
  commandLine,
  connect,
  describeError,
  fail,
  observationFromJson,
  seconds,
  wholeNumber,
} from './regent.js';

const USAGE =
  'usage: node recommend.js --server HOST:PORT --observation FILE.json ' +
  '[--iterations N] [--deadline SECONDS] [--top N]';

const args = commandLine(USAGE, {
  server: { type: 'string' },
  observation: { type: 'string' },
  iterations: { type: 'string' },
  deadline: { type: 'string', default: '30' },
  top: { type: 'string', default: '5' },
});
if (!args.server || !args.observation) fail(USAGE);
const deadline = seconds('deadline', args.deadline);
const top = Number(wholeNumber('top', args.top, 1));

let observation;
try {
  observation = observationFromJson(JSON.parse(readFileSync(args.observation, 'utf8')));
} catch (err) {
  fail(`cannot read the observation ${args.observation}: ${err.message}`);
}

const request = { observation };
if (args.iterations !== undefined) {
  request.budget = { iterations: wholeNumber('iterations', args.iterations, 1) };
}
const percent = (x) => `${(100 * x).toFixed(1)}%`;

const client = connect('AdvisorService', args.server);
let report;
try {
  ({ report } = await call(client, 'Recommend', request, deadline));
} catch (err) {
  fail(describeError(err), 1);
} finally {
  client.close();
}
process.stdout.write(`move: ${report.move.text}\n`);
process.stdout.write(
  `searched ${report.iterations} iterations in ${report.elapsedSeconds.toFixed(2)} s\n`,
);
const shown = report.moves.slice(0, top);
const width = Math.max(0, ...shown.map((m) => m.move.text.length));
for (const m of shown) {
  process.stdout.write(
    `  ${m.move.text.padEnd(width)}  visits ${String(m.visits).padStart(7)}` +
      `  win ${percent(m.winChance).padStart(6)}\n`,
  );
}
