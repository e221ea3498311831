/**
 * HTTP and WebSocket fuzzing against a running server (docs/OPERATIONS.md, "Fuzzing").
 *
 * HTTP: every operation of the served OpenAPI document, sent over raw TCP so nothing between
 * us and the server tidies the request up: malformed and mistyped bodies, huge values, odd
 * encodings and content types, bad and foreign ids, broken query strings, missing, bad and
 * duplicated headers. Requests go out in parallel batches; after a batch in which the server
 * refused every request that could change something, the state read back through the API must
 * be exactly what it was before the batch.
 *
 * WebSocket: refused handshakes (bad queries, tokens, ids) and, on sockets of every role, every
 * client message type of protocol/messages.ts broken in the same ways, plus non-JSON, binary,
 * oversized and invalid UTF-8 frames. Every frame is answered with an `error` (or the socket is
 * closed with the protocol's code for it), and nothing in the game changes.
 *
 * Randomness is seeded: a failure names its seed, and the same seed replays the same requests.
 *
 * The parts: fuzz-values.ts (randomness, breaking values), fuzz-openapi.ts (operations),
 * fuzz-requests.ts (building and sending one request), fuzz-http.ts and fuzz-ws.ts (the runs).
 */
export { Rng } from './fuzz-values.js';
export { type Operation, operationsOf } from './fuzz-openapi.js';
export { type FuzzRequest, type IdPool, makeRequest, type RawResponse, sendRaw } from './fuzz-requests.js';
export { apiStateReader, describeRequest, type Failure, fuzzHttp, type HttpFuzzOptions, type HttpFuzzReport, type StateReader } from './fuzz-http.js';
export { fuzzWebSocket, type WsFuzzReport, type WsTarget } from './fuzz-ws.js';
