// Regent's API for Node.js: the messages of proto/regent/v1, read and written with
// @bufbuild/protobuf, and a @grpc/grpc-js client for each service.
//
// The schema is the descriptor set `npm run build` compiles from ../../proto with buf
// (regent.binpb; `npm ci` builds it): nothing generated is kept in the repository, and
// @bufbuild/protobuf's fromJson implements protobuf's JSON mapping as its conformance tests
// check it (either field name form, enums by name or number, 64-bit integers as strings or
// numbers). Messages use the lowerCamelCase names of protobuf-es (`handSize`, oneofs as
// `{ case, value }`, 64-bit integers as BigInt). At the end, the few helpers the scripts share
// for their command lines.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { create, createFileRegistry, fromBinary, fromJson, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import grpc from '@grpc/grpc-js';

const DESCRIPTORS = fileURLToPath(new URL('./regent.binpb', import.meta.url));
const PACKAGE = 'regent.v1';

function loadRegistry() {
  let bytes;
  try {
    bytes = readFileSync(DESCRIPTORS);
  } catch (err) {
    throw new Error(`cannot read ${DESCRIPTORS} (${err.code}): run \`npm ci\` or \`npm run build\``);
  }
  return createFileRegistry(fromBinary(FileDescriptorSetSchema, bytes));
}

const registry = loadRegistry();

/** The schema of regent.v1's message `name`, e.g. "Observation". */
export function schema(name) {
  const found = registry.getMessage(`${PACKAGE}.${name}`);
  if (found === undefined) throw new Error(`${PACKAGE} has no message ${name}`);
  return found;
}

/** The number of regent.v1's enum value `value` of enum `name`, e.g. ("Game", "GAME_CITADELS"). */
export function enumNumber(name, value) {
  const found = registry.getEnum(`${PACKAGE}.${name}`)?.values.find((v) => v.name === value);
  if (found === undefined) throw new Error(`${PACKAGE}.${name} has no value ${value}`);
  return found.number;
}

/** The names of regent.v1's enum `name`, in number order. */
export function enumNames(name) {
  return registry.getEnum(`${PACKAGE}.${name}`).values.map((v) => v.name);
}

/** A regent.v1.Observation from protobuf's JSON mapping; throws on a field the message lacks
 * or a value of the wrong kind, naming it. */
export function observationFromJson(json) {
  return fromJson(schema('Observation'), json);
}

/** A client of regent.v1's service `name` ("AdvisorService", "MatchService") at host:port:
 * one method per RPC, named as in the .proto file, taking plain objects or messages. */
export function connect(name, address) {
  const service = registry.getService(`${PACKAGE}.${name}`);
  if (service === undefined) throw new Error(`${PACKAGE} has no service ${name}`);
  const definition = {};
  for (const method of service.methods) {
    const { input, output, methodKind } = method;
    definition[method.name] = {
      path: `/${service.typeName}/${method.name}`,
      requestStream: methodKind === 'client_streaming' || methodKind === 'bidi_streaming',
      responseStream: methodKind === 'server_streaming' || methodKind === 'bidi_streaming',
      requestSerialize: (message) => Buffer.from(toBinary(input, create(input, message))),
      requestDeserialize: (bytes) => fromBinary(input, bytes),
      responseSerialize: (message) => Buffer.from(toBinary(output, message)),
      responseDeserialize: (bytes) => fromBinary(output, bytes),
    };
  }
  const Client = grpc.makeGenericClientConstructor(definition, service.name);
  return new Client(address, grpc.credentials.createInsecure());
}

/** A unary call as a promise: `client[method](request)` within `seconds`. */
export function call(client, method, request, seconds) {
  const deadline = new Date(Date.now() + seconds * 1000);
  return new Promise((resolve, reject) => {
    client[method](request, { deadline }, (err, response) => (err ? reject(err) : resolve(response)));
  });
}

/** A gRPC error as one line: its status name and code, then the server's message. */
export function describeError(err) {
  if (typeof err.code !== 'number') return err.message;
  const name = Object.keys(grpc.status).find((key) => grpc.status[key] === err.code);
  return `${name ?? 'UNKNOWN'} (code ${err.code}): ${err.details || err.message}`;
}

// -- the scripts' command lines ----------------------------------------------------------

/** Print `message` to stderr and exit with `code` (2: a usage or input error). */
export function fail(message, code = 2) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** The option `--name`'s `text` as a whole number of at least `least` (a BigInt), or fail. */
export function wholeNumber(name, text, least) {
  if (!/^[0-9]+$/.test(text) || BigInt(text) < BigInt(least)) {
    fail(`--${name} must be a whole number of at least ${least}, not "${text}"`);
  }
  return BigInt(text);
}

/** The option `--name`'s `text` as a positive number of seconds, or fail. */
export function seconds(name, text) {
  const value = Number(text);
  if (!(value > 0)) fail(`--${name} must be a positive number of seconds, not "${text}"`);
  return value;
}

/** The values of the command line's `options` (node:util parseArgs); prints `usage` and exits
 * on --help (0) or on an unknown or malformed option (2). Output piped into a reader that
 * stops early (`| head`) ends the script quietly, as any command line tool. */
export function commandLine(usage, options) {
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(0);
  });
  let values;
  try {
    ({ values } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    fail(`${err.message}\n${usage}`);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return values;
}

export { grpc };
