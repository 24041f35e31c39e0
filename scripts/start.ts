/**
 * `npm start` — everything on the embedded defaults: the Temporal dev server (unless
 * TEMPORAL_ADDRESS points elsewhere, or one already answers on 7233), a worker, and the web
 * page with the HTTP API.
 * Prints where to look. Ctrl-C stops both.
 */
import { loadConfigOrExit } from '../config/load-config-or-exit';
import { serveApi, serverLog } from '../client/http/serve-api';
import { configuredSecrets, createRedactor } from '../config/redact-secrets';
import { createWorker } from '../worker/create-worker';
import { configuredVersion, describeVersion, joinDeployment } from '../worker/deployment-version';
import { installRedactingRuntime } from '../worker/redacting-logger';
import { serveMetrics } from '../worker/telemetry/metrics-endpoint';
import { describeLlm } from '../worker/describe-llm';
import { isServing, type DevServer } from './dev-server';
import { EMBEDDED, EMBEDDED_UI_ORIGIN, startEmbeddedServer } from './embedded-server';
import { encryptionOn, payloadCodecs } from '../config/data-converter';
import type { CairnConfig } from '../config/config';

/** The HTTP API as a browser on this machine reaches it (a wildcard host is reached on loopback). */
function localUrl(http: CairnConfig['http']): string {
  const host = http.host === '0.0.0.0' || http.host === '::' ? '127.0.0.1' : http.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${http.port}`;
}

/** One line on payload protection for the start banner. */
function describePayloads(payloads: CairnConfig['payloads'], codecEndpoint: string | undefined): string {
  const compression = payloads.compression ? 'compressed' : 'not compressed';
  const encryption = encryptionOn(payloads)
    ? `encrypted with key ${payloads.keys?.[0]?.id ?? '?'}`
    : 'not encrypted (set CAIRN_ENCRYPTION_KEYS to encrypt)';
  return `${compression}, ${encryption}${codecEndpoint ? `; codec server ${codecEndpoint}` : ''}`;
}

const config = loadConfigOrExit();
const log = serverLog(config);

async function main(): Promise<void> {
  // The configured address gets the Host-checked endpoint; the runtime's exporter sits behind it.
  const metrics = config.telemetry.metrics ? await serveMetrics(config.telemetry.metrics) : undefined;
  installRedactingRuntime(createRedactor(configuredSecrets(config)), 'INFO', {
    metricsAddress: metrics?.exporterAddress,
  });
  let server: DevServer | undefined;
  // Compressed or encrypted payloads: the embedded UI decodes them through Cairn's codec server.
  const codecEndpoint = payloadCodecs(config.payloads).length > 0 ? `${localUrl(config.http)}/codec` : undefined;
  if (codecEndpoint && !config.payloads.codecCorsOrigin) config.payloads.codecCorsOrigin = EMBEDDED_UI_ORIGIN;
  if (!config.temporal.addressConfigured && !(await isServing(config.temporal.address))) {
    server = await startEmbeddedServer(codecEndpoint);
  }
  const version = configuredVersion(config);
  const cairn = await createWorker({ config, ...(version ? { version } : {}) });
  const api = await serveApi(config, log);
  const ui = config.temporal.addressConfigured ? '(your cluster’s UI)' : `http://${EMBEDDED.ip}:${EMBEDDED.uiPort}`;
  console.log(
    [
      '',
      'Cairn is running.',
      `  Temporal:    ${config.temporal.address} (namespace ${config.temporal.namespace})`,
      `  Temporal UI: ${ui}`,
      `  Payloads:    ${describePayloads(config.payloads, codecEndpoint)}`,
      `  Task queue:  ${config.taskQueue}`,
      `  Worker:      ${describeVersion(version)}`,
      `  Web page:    ${api.url}/`,
      `  HTTP API:    ${api.url}/api/agents (OpenAPI at ${api.url}/api/openapi.json)`,
      `  ${describeLlm(config)}`,
      '',
      `Open ${api.url}/ and submit a task, or from another terminal:`,
      '  npx cairn run "Explain durable execution" --ask --confirm-plan',
      '',
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  const running = cairn.run(); // settles after SIGINT / SIGTERM once both workers have drained
  // What you run is what new agents run: this build becomes current once it polls.
  if (version) console.log(await joinDeployment(config, version, 'always'));
  await running;
  await api.close();
  await cairn.close();
  await server?.stop();
}

main().catch((err: unknown) => {
  log.error('cairn start failed', err);
  process.exit(1);
});
