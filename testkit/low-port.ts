/**
 * Free loopback ports below 32768, for servers the tests and suites start. Two reasons:
 * - a port from the kernel's ephemeral range (32768 and up), free when picked, can be taken by
 *   any outgoing connection before the server binds it (a dev server then exits with "bind:
 *   address already in use"); ports below that range are never handed to outgoing connections;
 * - Temporal's PostgreSQL schema keeps each host's port in a `smallint` column
 *   (cluster_membership.rpc_port), so a cluster service on an ephemeral port cannot register.
 * The ports are drawn at random, each checked by binding it, and never handed out twice in one
 * process.
 */
import { createServer } from 'node:net';

const LOW = 10_000;
const HIGH = 32_767;
const given = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port in 10000–32767 that was free a moment ago and not handed out before. */
export async function lowFreePort(): Promise<number> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (given.has(port) || !(await bindable(port))) continue;
    given.add(port);
    return port;
  }
  throw new Error(`no free port between ${LOW} and ${HIGH}`);
}
