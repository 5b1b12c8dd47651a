#!/usr/bin/env node
// Asks a Regent server for the move to play from one player's observation.
//
//   node recommend.js --server 127.0.0.1:50051 --observation FILE.json [--iterations N]
//
// FILE.json is a regent.v1.Observation in protobuf's JSON mapping (what
// google.protobuf.json_format.MessageToJson writes). Prints the recommended
// move, then the most visited moves with their visits and win chance. On a
// gRPC error, prints the status code and message to stderr and exits 1; on a
// usage or input error, exits 2. --deadline (default 30 s) bounds the call;
// without --iterations the server's default budget applies.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

const PROTO_DIR = fileURLToPath(new URL('../../proto', import.meta.url));
const PROTO_FILE = 'regent/v1/advisor.proto';
const USAGE =
  'usage: node recommend.js --server HOST:PORT --observation FILE.json ' +
  '[--iterations N] [--deadline SECONDS] [--top N]';

function fail(message, code = 2) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function positiveInteger(name, text) {
  if (!/^[1-9][0-9]*$/.test(text)) fail(`--${name} must be a positive integer, not "${text}"`);
  return text;
}

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      server: { type: 'string' },
      observation: { type: 'string' },
      iterations: { type: 'string' },
      deadline: { type: 'string', default: '30' },
      top: { type: 'string', default: '5' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  fail(`${err.message}\n${USAGE}`);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!args.server || !args.observation) fail(USAGE);
const deadlineSeconds = Number(args.deadline);
if (!(deadlineSeconds > 0)) fail(`--deadline must be a positive number, not "${args.deadline}"`);
const top = Number(positiveInteger('top', args.top));

const common = {
  includeDirs: [PROTO_DIR],
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};
// The client's view: field names as in the .proto files.
const definition = protoLoader.loadSync(PROTO_FILE, { ...common, keepCase: true });
// The same schema with lowerCamelCase field names, to read protobuf's JSON mapping.
const camelCase = protoLoader.loadSync(PROTO_FILE, { ...common, keepCase: false });

// JSON mapping -> binary (protobufjs fromObject: camelCase keys, enum names,
// int64 as strings) -> the keepCase object the client's serializer expects.
function observationFromJson(json) {
  const bytes = camelCase['regent.v1.Observation'].serialize(json);
  return definition['regent.v1.Observation'].deserialize(bytes);
}

let observation;
try {
  observation = observationFromJson(JSON.parse(readFileSync(args.observation, 'utf8')));
} catch (err) {
  fail(`cannot read the observation ${args.observation}: ${err.message}`);
}

const regent = grpc.loadPackageDefinition(definition).regent.v1;
const client = new regent.AdvisorService(args.server, grpc.credentials.createInsecure());
const request = { observation };
if (args.iterations !== undefined) {
  request.budget = { iterations: positiveInteger('iterations', args.iterations) };
}
const deadline = new Date(Date.now() + deadlineSeconds * 1000);

const statusName = (code) =>
  Object.keys(grpc.status).find((name) => grpc.status[name] === code) ?? `code ${code}`;
const percent = (x) => `${(100 * x).toFixed(1)}%`;

client.Recommend(request, { deadline }, (err, response) => {
  client.close();
  if (err) fail(`${statusName(err.code)} (code ${err.code}): ${err.details || err.message}`, 1);
  const report = response.report;
  process.stdout.write(`move: ${report.move.text}\n`);
  process.stdout.write(
    `searched ${report.iterations} iterations in ${report.elapsed_seconds.toFixed(2)} s\n`,
  );
  const width = Math.max(0, ...report.moves.slice(0, top).map((m) => m.move.text.length));
  for (const m of report.moves.slice(0, top)) {
    process.stdout.write(
      `  ${m.move.text.padEnd(width)}  visits ${String(m.visits).padStart(7)}` +
        `  win ${percent(m.win_chance).padStart(6)}\n`,
    );
  }
});
