/**
 * The server-sent events test client as everything outside test/ imports it (bench/): the same
 * client the tests use, implemented in test/harness/sse-client.ts.
 */
export { connectSse, serveOnLoopback, type SseClient, type SseFrame } from '../test/harness/sse-client';
