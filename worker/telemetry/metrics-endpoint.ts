/**
 * The worker's `/metrics` (CAIRN_METRICS_ADDRESS), behind a Host check like the HTTP API's
 * (client/http/host-guard.ts). The Temporal runtime's Prometheus exporter answers whatever
 * `Host` a request names, so a DNS-rebinding page — on the attacker's domain, later pointed at
 * the worker's address — could read it from a browser on that machine or network: agents by
 * phase, open interactions, models, tools and spend. Now the exporter listens on a loopback port
 * chosen at random, and this server, on the configured address, passes a scrape on only when its
 * `Host` is a loopback name, an IP address, the configured host, or one of
 * CAIRN_METRICS_ALLOWED_HOSTS; any other gets 421. An IP address is safe to answer: a rebinding
 * page's requests always carry its own domain name, and a page served from the address itself
 * would be this server's.
 */
import { createServer as createHttpServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, isIP } from 'node:net';
import type { TelemetryConfig } from '../../config/telemetry-config';
import { allowedHostNames, hostNameOf } from '../../config/host-names';

/** The served endpoint: where the runtime's exporter must listen, and how to stop serving. */
export interface MetricsEndpoint {
  /** `127.0.0.1:<port>`: the bind address to give the runtime's Prometheus exporter. */
  exporterAddress: string;
  close(): Promise<void>;
}

/** Host and port of a `host:port` address (`[v6]:port` too). */
function splitAddress(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(':');
  return { host: address.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(address.slice(colon + 1)) };
}

/** Whether a scrape naming `host` is answered. */
export function metricsHostAllowed(host: string | undefined, allowed: ReadonlySet<string>): boolean {
  const name = host === undefined ? undefined : hostNameOf(host);
  if (name === undefined) return false;
  return allowed.has(name) || isIP(name.replace(/^\[(.*)\]$/, '$1')) !== 0;
}

/** A loopback port that was free a moment ago, for the exporter. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Answers one request: refused by Host, method or path, else the exporter's answer passed on. */
function answer(req: IncomingMessage, res: ServerResponse, allowed: ReadonlySet<string>, exporterPort: number) {
  const plain = (status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`${text}\n`);
  };
  if (!metricsHostAllowed(req.headers.host, allowed)) {
    return plain(421, 'this Host is not served here (CAIRN_METRICS_ALLOWED_HOSTS lists more)');
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return plain(405, 'only GET /metrics');
  if (new URL(req.url ?? '/', 'http://metrics').pathname !== '/metrics') return plain(404, 'only GET /metrics');
  const upstream = request(
    { host: '127.0.0.1', port: exporterPort, path: '/metrics', method: req.method },
    (scraped) => {
      const type = scraped.headers['content-type'] ?? 'text/plain; version=0.0.4';
      res.writeHead(scraped.statusCode ?? 502, { 'content-type': type });
      scraped.pipe(res);
    },
  );
  upstream.on('error', () => (res.headersSent ? res.destroy() : plain(502, 'the metrics exporter did not answer')));
  upstream.end();
}

/**
 * Serves `/metrics` on the configured address; the caller installs the runtime with the
 * returned `exporterAddress`. Rejects when the address cannot be listened on. The server does
 * not keep the process alive.
 */
export async function serveMetrics(settings: NonNullable<TelemetryConfig['metrics']>): Promise<MetricsEndpoint> {
  const { host, port } = splitAddress(settings.address);
  const allowed = new Set(allowedHostNames(host, settings.allowedHosts ?? []));
  const exporterPort = await freeLoopbackPort();
  const server = createHttpServer((req, res) => answer(req, res, allowed, exporterPort));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  server.unref();
  return {
    exporterAddress: `127.0.0.1:${exporterPort}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
