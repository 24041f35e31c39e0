/**
 * Serves the HTTP API for a configuration: used by `npm run web` and `npm start`.
 */
import { serve } from '@hono/node-server';
import type { CairnConfig } from '../../config/config';
import { version } from '../../package.json';
import { AgentClient } from '../agents/agent-client';
import { ThreadClient } from '../threads/thread-client';
import { encryptionOn } from '../../temporal/payloads/data-converter';
import { createAuthenticator } from './auth/create-authenticator';
import { createApp } from './create-app';
import { allowedHostNames } from '../../config/host-names';
import { configuredSecrets } from '../../config/redact-secrets';
import { createLog, type Log } from '../redacted-log';
import type { GraphRegistry } from '../graphs/graph-registry';
import { loadGraphRegistry } from '../graphs/load-graphs';
import type { DefinitionRegistry } from '../definitions/definition-registry';
import { knownEndpoints, loadDefinitionRegistry } from '../definitions/load-definitions';
import type { CodecAuditRecord } from './routes/codec';

/** How long `/healthz` waits for Temporal to answer before it reports it down. */
export const HEALTH_PROBE_TIMEOUT_MS = 2_000;

/** The server's log: every configured secret (API tokens, the OIDC client secret, keys) redacted. */
export const serverLog = (config: CairnConfig): Log => createLog(configuredSecrets(config));

export interface ApiServer {
  url: string;
  /** Stops listening and ends every open connection, held streams and long polls included. */
  close: () => Promise<void>;
}

/** What else the server may be told by the process that runs it. */
export interface ServeOptions {
  /** The Temporal Web UI the page links to (`npm start`'s embedded one, wherever its port is). */
  temporalUiUrl?: string;
  /** The registered graphs, when the process loaded them already; else loaded here from `CAIRN_GRAPHS`. */
  graphs?: GraphRegistry;
  /** The agent definitions, when the process loaded them already; else loaded here from `CAIRN_AGENTS`. */
  definitions?: DefinitionRegistry;
  /** Where the codec server's audit records go; the server's log when absent. */
  codecAudit?: (record: CodecAuditRecord) => void;
}

/**
 * Connects to Temporal and listens on `config.http`. Refuses to start (throws, saying why) when
 * authentication is off on an address other machines reach, its setup fails or the `CAIRN_GRAPHS`
 * module holds a broken graph (GraphModuleError) or the `CAIRN_AGENTS` module a broken definition
 * (DefinitionModuleError); rejects with
 * the listen error (`EADDRINUSE`, …) when the port cannot be had, its connection closed.
 */
export async function serveApi(
  config: CairnConfig,
  log: Log = serverLog(config),
  options: ServeOptions = {},
): Promise<ApiServer> {
  const graphs = options.graphs ?? (await loadGraphRegistry(config.graphs.module, process.cwd()));
  const definitions =
    options.definitions ??
    (await loadDefinitionRegistry(config.definitions.module, process.cwd(), knownEndpoints(config)));
  const auth = await createAuthenticator(config.auth, config.http.host, log);
  const agents = await AgentClient.connect(config, { graphs, definitions });
  const app = createApp({
    version,
    agents,
    threads: new ThreadClient(
      agents.temporal,
      config.taskQueue,
      !encryptionOn(config.payloads),
      undefined,
      config.threads,
      definitions,
    ),
    // The public URL's host is one the proxy forwards, so it is served too.
    allowedHosts: allowedHostNames(config.http.host, [
      ...(config.http.allowedHosts ?? []),
      ...(config.http.publicUrl ? [new URL(config.http.publicUrl).hostname] : []),
    ]),
    ...(config.http.publicUrl ? { publicOrigin: config.http.publicUrl } : {}),
    auth,
    log,
    payloads: config.payloads,
    ...(options.temporalUiUrl ? { temporalUiUrl: options.temporalUiUrl } : {}),
    ...(options.codecAudit ? { codecAudit: options.codecAudit } : {}),
    streamLimits: config.http.streams,
    workspace: config.workspace,
    uploads: { root: config.workspace, limits: config.http.uploads },
    // A round trip to the frontend on the client's own connection (no second connection). The
    // deadline ends the connection's retries: without it a probe of a server that is down
    // answered only after some 18 seconds, past any orchestrator's probe timeout.
    temporalHealthy: async () => {
      const deadline = Date.now() + HEALTH_PROBE_TIMEOUT_MS;
      await agents.temporal.withDeadline(deadline, () => agents.temporal.workflowService.getSystemInfo({}));
      return true;
    },
  });
  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      // A port that is taken is an 'error' event: unhandled, it would end the process with a stack.
      const s = serve({ fetch: app.fetch, port: config.http.port, hostname: config.http.host }, () => resolve(s));
      s.once('error', reject);
    });
  } catch (err) {
    await agents.close();
    throw err;
  }
  return {
    url: `http://${config.http.host}:${config.http.port}`,
    close: () => {
      const closed = new Promise<void>((resolve) => server.close(() => void agents.close().then(() => resolve())));
      // Streams and long polls never end by themselves (heartbeats keep them open): a page left
      // open would hold the close, and the process, for minutes. Their connections end now.
      if ('closeAllConnections' in server) server.closeAllConnections();
      return closed;
    },
  };
}
