/**
 * Host names for the DNS-rebinding guards of the HTTP API (client/http/host-guard.ts) and the
 * worker's metrics endpoint: the configured lists (CAIRN_HTTP_ALLOWED_HOSTS,
 * CAIRN_METRICS_ALLOWED_HOSTS) checked and normalised once, the loopback names, and the name a
 * `Host` header carries — compared without the port, lower-cased, IPv6 in brackets.
 */
import { isIPv6 } from 'node:net';
import { z } from 'zod';

/**
 * One name a browser may send in `Host`, without port or scheme: lower-cased, and an IPv6
 * address in brackets, as browsers write it.
 */
const hostName = z.string().transform((text, ctx) => {
  const name = text.toLowerCase();
  const bare = name.replace(/^\[(.*)\]$/, '$1');
  if (isIPv6(bare)) return `[${bare}]`;
  if (/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(name)) return name;
  ctx.addIssue({
    code: 'custom',
    message: 'expected host names without port or scheme, e.g. cairn.example.com,10.0.0.5',
  });
  return z.NEVER;
});

/** A comma-separated list of host names, as one variable holds it. */
export const hostNameList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(hostName));

/** Names of this machine that no other site can make a browser send. */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Listen addresses meaning "every interface": they name no host a browser would use. */
const ANY_ADDRESS = new Set(['', '0.0.0.0', '[::]']);

/** A host name as it is compared: trimmed, lower-cased, a bare IPv6 address put in brackets. */
export function normaliseHostName(name: string): string {
  const lower = name.trim().toLowerCase();
  return isIPv6(lower) ? `[${lower}]` : lower;
}

/**
 * The names the server answers to: the loopback names, the listen host when it is one specific
 * name or address (not 0.0.0.0 / ::), and the configured extra names (CAIRN_HTTP_ALLOWED_HOSTS).
 */
export function allowedHostNames(listenHost: string, extra: readonly string[] = []): string[] {
  const listen = normaliseHostName(listenHost);
  const names = [...LOOPBACK_HOST_NAMES, ...(ANY_ADDRESS.has(listen) ? [] : [listen]), ...extra];
  return [...new Set(names.map(normaliseHostName))];
}

/** The host name of a `Host` value (`name`, `name:port`, `[v6]`, `[v6]:port`); undefined when malformed. */
export function hostNameOf(host: string): string | undefined {
  const name = /^(\[[0-9a-f:.]+\]|[^\s:[\]/@]+)(?::\d{1,5})?$/i.exec(host)?.[1];
  return name === undefined ? undefined : normaliseHostName(name);
}
