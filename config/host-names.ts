/**
 * Host-name lists of the configuration (CAIRN_HTTP_ALLOWED_HOSTS, CAIRN_METRICS_ALLOWED_HOSTS):
 * the names a browser may send in `Host` besides the loopback ones, checked and normalised once
 * for both the HTTP API and the worker's metrics endpoint.
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
