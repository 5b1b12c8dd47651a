// The gateway's API: one function per route. Failures throw ApiError, which carries the
// service's message and the fields it blamed, each with the refusal's wording (its template
// and params, which js/refusal.js words in the page's language) when the service gave one.
//
// A gateway reachable from the network asks for its access token: regent prints the page's
// address with ?token=...; the page moves it from the address bar into this tab's
// sessionStorage (a reload keeps it, the browser's history does not) and sends it with every
// call as an Authorization: Bearer header.

import { t } from "./i18n.js";

const TOKEN = "regent.token";

function keepToken() {
  const url = new URL(window.location.href);
  const token = url.searchParams.get("token");
  if (token === null) return;
  sessionStorage.setItem(TOKEN, token);
  url.searchParams.delete("token");
  window.history.replaceState(null, "", url.pathname + url.search + url.hash);
}

keepToken();

function headers(extra = {}) {
  const token = sessionStorage.getItem(TOKEN);
  return token ? { ...extra, Authorization: `Bearer ${token}` } : extra;
}

// `message` is the service's (English); `words`, when set, the page's own in the page's
// language (a server it cannot reach, an answer that is no JSON); `wording`, the message's
// template and params ({template, params}) when it blames no field.
export class ApiError extends Error {
  constructor(status, code, message, fields, words = null, wording = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields || [];
    this.words = words;
    this.wording = wording;
  }
}

// The ApiError of the gateway's {"error": ...} (`status`: the HTTP status it came with).
const fromBody = (status, error) =>
  new ApiError(status, error.code, error.message, error.fields, null, error.template ? { template: error.template, params: error.params || {} } : null);

async function failure(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: a proxy's page, say
  }
  const error = body && body.error;
  if (error) return fromBody(response.status, error);
  const words = t("api.http", { status: response.status });
  return new ApiError(response.status, "HTTP_ERROR", `the page's server answered ${response.status}`, [], words);
}

// POST `body` as JSON; the response when it is ok, null when `signal` aborted the call,
// ApiError otherwise (the gateway's refusal, or no server to reach).
async function send(path, body, signal = undefined) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: headers({ "Content-Type": "application/json" }),
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (err.name === "AbortError") return null;
    throw new ApiError(0, "OFFLINE", `cannot reach the page's server: ${err.message}`, [], t("api.offline"));
  }
  if (!response.ok) throw await failure(response);
  return response;
}

const post = async (path, body) => (await send(path, body)).json();

export async function listGames() {
  const response = await fetch("/api/games", { headers: headers() });
  if (!response.ok) throw await failure(response);
  return response.json();
}

export const legalMoves = (observation) => post("/api/legal-moves", { observation });

// An observation in either form of protobuf's JSON mapping (what a protobuf library writes:
// lowerCamelCase names or the .proto's, enums by name or number), in the page's form.
export const readObservation = (observation) => post("/api/observation", observation);

export const applyMove = (observation, text, revealed) =>
  post("/api/apply-move", { observation, move: { text }, revealed });

// A new game at the deal as `seat` (0-based) sees it, the engine's, dealt from `seed`:
// {observation} (see clients/web/deal.py).
export const deal = (game, numPlayers, seat, seed = 0) => post("/api/deal", { game, num_players: numPlayers, seat, seed });

// Following a game: the move of `player` (any player, the observer too) as seen at the table.
export const applyObservedMove = (observation, player, text, revealed) =>
  post("/api/apply-observed-move", { observation, player, move: { text }, revealed });

// POST `body` to a streaming route and call onLine(line) for every JSON line of the answer;
// `signal` (an AbortSignal) stops it: the gateway cancels the call when the browser hangs up.
async function streamLines(path, body, onLine, signal) {
  const response = await send(path, body, signal);
  if (response === null) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffered.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        if (line.error) throw fromBody(502, line.error);
        onLine(line);
      }
    }
  } catch (err) {
    if (err.name === "AbortError") return;
    throw err;
  }
}

// Analyze: calls onReport(report, final) for every report while the search runs.
export const analyze = (observation, budget, onReport, signal) =>
  streamLines(
    "/api/analyze",
    { observation, budget, interval_ms: 200 },
    (line) => onReport(line.report, Boolean(line.final)),
    signal,
  );

// Review: one seat's game (a ReviewRequest: its observations, moves and budgets); calls
// onMessage(message) for every progress message and for the last, which holds the review.
export const review = (request, onMessage, signal) => streamLines("/api/review", request, onMessage, signal);
