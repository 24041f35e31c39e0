/**
 * What `npm start` checks before it starts anything: the web page's port, and — when no
 * Temporal address is configured — the embedded server's gRPC and Web UI ports. A port held by
 * something that is not a Temporal frontend refuses the start with one line naming the port, its
 * variable and (on Linux) the process that holds it; a Temporal server already on the gRPC port
 * is used, not replaced, and said to be someone else's.
 */
import type { CairnConfig } from '../config/config';
import { embeddedAddress } from '../config/embedded-server-config';
import { isServing } from './dev-server';
import { portOwner, probePort } from './port-owner';

/** Why `npm start` will not start: `message` is the one line to print. */
export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefused';
  }
}

/** Which Temporal server `npm start` uses. */
export type TemporalChoice =
  /** TEMPORAL_ADDRESS or a temporal.toml profile names one. */
  | { kind: 'configured' }
  /** Nothing on the embedded port: `npm start` starts the dev server there. */
  | { kind: 'embedded' }
  /** A Temporal server already answers on the embedded port; `owner` is its process, when known. */
  | { kind: 'existing'; owner?: string };

/** The line for a port that cannot be had. */
export function portRefusal(
  port: number,
  variable: string,
  what: string,
  verdict: 'in-use' | 'denied',
  extra = '',
): StartRefused {
  if (verdict === 'denied') {
    return new StartRefused(
      `cairn start: port ${port} (${variable}, ${what}) needs privileges this user lacks; set ${variable} to a port above 1023`,
    );
  }
  const holder = portOwner(port) ?? 'another program';
  return new StartRefused(
    `cairn start: port ${port} (${variable}, ${what}) is in use by ${holder}${extra}; stop it, or set ${variable} to a free port`,
  );
}

/**
 * Checks the ports `npm start` needs, in the order it would take them, and says which Temporal
 * server to use. Starts nothing.
 * @throws StartRefused naming the first port that cannot be had.
 */
export async function checkStartPorts(config: CairnConfig): Promise<TemporalChoice> {
  const http = await probePort(config.http.host, config.http.port);
  if (http !== 'free') throw portRefusal(config.http.port, 'CAIRN_HTTP_PORT', 'the web page and HTTP API', http);
  if (config.temporal.addressConfigured) return { kind: 'configured' };

  const { embedded } = config;
  const grpc = await probePort(embedded.ip, embedded.port);
  if (grpc === 'in-use') {
    if (await isServing(embeddedAddress(embedded))) {
      const owner = portOwner(embedded.port);
      return { kind: 'existing', ...(owner ? { owner } : {}) };
    }
    throw portRefusal(embedded.port, 'CAIRN_TEMPORAL_PORT', 'Temporal gRPC', grpc, ', which is not a Temporal server');
  }
  if (grpc === 'denied') throw portRefusal(embedded.port, 'CAIRN_TEMPORAL_PORT', 'Temporal gRPC', grpc);
  const ui = await probePort(embedded.ip, embedded.uiPort);
  if (ui !== 'free') throw portRefusal(embedded.uiPort, 'CAIRN_TEMPORAL_UI_PORT', 'Temporal Web UI', ui);
  return { kind: 'embedded' };
}
