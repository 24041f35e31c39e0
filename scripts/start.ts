/**
 * `npm start` — everything on the embedded defaults: the Temporal dev server (unless
 * TEMPORAL_ADDRESS points elsewhere, or a Temporal server already answers on its port), a
 * worker, and the web page with the HTTP API. Every port is checked before anything starts
 * (start-ports.ts): a taken one is one line and exit code 1. Prints where to look. Ctrl-C stops
 * everything it started; a server it did not start is left running, and the banner says so.
 * The example graphs are registered unless CAIRN_GRAPHS says otherwise; scripts/node-check.js
 * has already refused a Node older than package.json's `engines`.
 */
import { loadConfigOrExit } from '../config/load-config-or-exit';
import { serveApi, serverLog, type ApiServer } from '../client/http/serve-api';
import { configuredSecrets, createRedactor } from '../config/redact-secrets';
import { embeddedUiUrl } from '../config/embedded-server-config';
import { createWorker, type CairnWorker } from '../worker/create-worker';
import { configuredVersion, describeVersion, joinDeployment } from '../temporal/deployment-version';
import { installRedactingRuntime } from '../worker/redacting-logger';
import { serveMetrics, type MetricsEndpoint } from '../worker/telemetry/metrics-endpoint';
import { describeLlm } from '../worker/describe-llm';
import { reloadPolicyOnHangUp } from '../worker/reload-policy';
import { ensureTemporalCli, type DevServer } from './dev-server';
import { startEmbeddedServer } from './embedded-server';
import { checkStartPorts, portRefusal, StartRefused, type TemporalChoice } from './start-ports';
import { encryptionOn, payloadCodecs } from '../temporal/payloads/data-converter';
import type { CairnConfig } from '../config/config';
import { GraphModuleError, loadGraphRegistry } from '../client/graphs/load-graphs';
import type { GraphRegistry } from '../client/graphs/graph-registry';
import { DefinitionModuleError, loadDefinitionRegistry } from '../client/definitions/load-definitions';
import type { DefinitionRegistry } from '../client/definitions/definition-registry';
import { openStartLog, type StartLog } from './start-log';

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

/** The banner's Temporal lines: whose server it is, its UI, and where the `temporal` CLI is. */
function describeTemporal(config: CairnConfig, choice: TemporalChoice, cli: string | undefined): string[] {
  const where = `${config.temporal.address} (namespace ${config.temporal.namespace})`;
  const ui = embeddedUiUrl(config.embedded);
  switch (choice.kind) {
    case 'configured':
      return [`  Temporal:     ${where}, as configured`, '  Temporal UI:  (your cluster’s UI)'];
    case 'existing':
      return [
        `  Temporal:     ${where}: a server npm start did not start, run by ${choice.owner ?? 'another program'};`,
        '                Ctrl-C leaves it running',
        `  Temporal UI:  that server’s own (the embedded one would be ${ui})`,
      ];
    case 'embedded':
      return [
        `  Temporal:     ${where}: the dev server npm start runs, data in ${config.embedded.dbFile}`,
        `  Temporal UI:  ${ui}`,
        ...(cli ? [`  Temporal CLI: ${cli} (e.g. ${cli} workflow list --address ${config.temporal.address})`] : []),
      ];
  }
}

/** How to reach this Temporal from another terminal, when it is not where the CLI looks by default. */
function cliHint(config: CairnConfig): string {
  const moved = !config.temporal.addressConfigured && config.embedded.port !== 7233;
  return `  ${moved ? `CAIRN_TEMPORAL_PORT=${config.embedded.port} ` : ''}npx cairn run "Explain durable execution" --ask --confirm-plan`;
}

/** The example graphs, which `npm start` registers unless CAIRN_GRAPHS is set (empty: none). */
const EXAMPLE_GRAPHS = 'examples/graphs/index.ts';
process.env.CAIRN_GRAPHS ??= EXAMPLE_GRAPHS;
const config = loadConfigOrExit();
const log = serverLog(config);

/** What this process started, stopped in reverse order when it fails or ends. */
interface Started {
  metrics?: MetricsEndpoint;
  server?: DevServer;
  api?: ApiServer;
  worker?: CairnWorker;
  log?: StartLog;
}

async function main(started: Started): Promise<void> {
  // The registered graphs before anything starts: a broken one is one message, nothing left behind.
  const graphs = await registeredGraphs(config);
  const definitions = await registeredDefinitions(config);
  // The configured address gets the Host-checked endpoint; the runtime's exporter sits behind it.
  const metrics = config.telemetry.metrics ? await serveMetrics(config.telemetry.metrics) : undefined;
  if (metrics) started.metrics = metrics;
  installRedactingRuntime(createRedactor(configuredSecrets(config)), 'INFO', {
    metricsAddress: metrics?.exporterAddress,
  });
  // Every port before anything starts: a refusal leaves nothing behind.
  const choice = await checkStartPorts(config);
  // Compressed or encrypted payloads: the embedded UI decodes them through Cairn's codec server.
  const codecEndpoint = payloadCodecs(config.payloads).length > 0 ? `${localUrl(config.http)}/codec` : undefined;
  const ui = embeddedUiUrl(config.embedded);
  if (codecEndpoint && !config.payloads.codecCorsOrigin) config.payloads.codecCorsOrigin = ui;
  // The dev server's output and the codec audit: in the file the banner names, not the terminal.
  const startLog = openStartLog(config.embedded.dbFile, configuredSecrets(config));
  started.log = startLog;
  let cli: string | undefined;
  if (choice.kind === 'embedded') {
    cli = ensureTemporalCli();
    try {
      started.server = await startEmbeddedServer(config.embedded, {
        cli,
        logFile: startLog.path,
        ...(codecEndpoint ? { uiCodecEndpoint: codecEndpoint } : {}),
      });
    } catch (err) {
      // Its own log says why; startDevServer has already killed it.
      throw new StartRefused(
        `cairn start: the embedded Temporal server did not start: ${(err as Error).message} (its log: ${startLog.path})`,
      );
    }
  }
  try {
    started.api = await serveApi(config, log, {
      graphs,
      definitions,
      codecAudit: startLog.codecAudit,
      ...(config.temporal.addressConfigured ? {} : { temporalUiUrl: ui }),
    });
  } catch (err) {
    // Taken between the check and now.
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    throw portRefusal(config.http.port, 'CAIRN_HTTP_PORT', 'the web page and HTTP API', 'in-use');
  }
  const version = configuredVersion(config);
  const cairn = await createWorker({ config, ...(version ? { version } : {}) });
  started.worker = cairn;
  const api = started.api;
  // Ctrl-C: the Temporal runtime drains the workers; the web page's open streams end at once.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void closeApi(started));
  // As the worker's: SIGHUP reloads the approval policy instead of ending the process.
  reloadPolicyOnHangUp(config);
  const policyFile = process.env.CAIRN_POLICY_FILE;
  console.log(
    [
      '',
      'Cairn is running.',
      ...describeTemporal(config, choice, cli),
      `  Payloads:     ${describePayloads(config.payloads, codecEndpoint)}`,
      `  Task queue:   ${config.taskQueue}`,
      `  Worker:       ${describeVersion(version)}`,
      ...(graphs.list().length
        ? [
            `  Graphs:       ${graphs
              .list()
              .map((g) => g.name)
              .join(', ')} (CAIRN_GRAPHS)`,
          ]
        : []),
      `  Web page:     ${api.url}/`,
      `  HTTP API:     ${api.url}/api/agents (OpenAPI at ${api.url}/api/openapi.json)`,
      `  ${describeLlm(config)}`,
      `  Log:          ${startLog.path} (the Temporal server's output, the codec audit)`,
      ...(config.tools.policy && policyFile
        ? [`  Policy:       ${policyFile}; kill -HUP ${process.pid} reloads it`]
        : []),
      '',
      `Open ${api.url}/ and submit a task, or from another terminal:`,
      cliHint(config),
      '',
      choice.kind === 'existing' ? 'Ctrl-C stops the worker and the web page.' : 'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  const running = cairn.run(); // settles after SIGINT / SIGTERM once both workers have drained
  // What you run is what new agents run: this build becomes current once it polls.
  if (version) console.log(await joinDeployment(config, version, 'always'));
  await running;
  await stopAll(started);
}

/** The graphs of CAIRN_GRAPHS; a broken module or graph refuses the start with its message alone. */
async function registeredGraphs(config: CairnConfig): Promise<GraphRegistry> {
  try {
    return await loadGraphRegistry(config.graphs.module, process.cwd());
  } catch (err) {
    if (err instanceof GraphModuleError) throw new StartRefused(`cairn start: ${err.message}`);
    throw err;
  }
}

/** The agent definitions of CAIRN_AGENTS; a broken module or definition refuses the start with its message alone. */
async function registeredDefinitions(config: CairnConfig): Promise<DefinitionRegistry> {
  try {
    return await loadDefinitionRegistry(config.definitions.module, process.cwd());
  } catch (err) {
    if (err instanceof DefinitionModuleError) throw new StartRefused(`cairn start: ${err.message}`);
    throw err;
  }
}

/** Closes the web page and HTTP API, ending their open streams; stopAll then has nothing left of it to wait for. */
async function closeApi(started: Started): Promise<void> {
  const { api } = started;
  delete started.api;
  await api?.close().catch(() => undefined);
}

/** Stops what was started, newest first; a failure to stop one does not keep the others running. */
async function stopAll(started: Started): Promise<void> {
  const { api, worker, server, metrics, log } = started;
  delete started.api;
  delete started.worker;
  delete started.server;
  delete started.metrics;
  delete started.log;
  await api?.close().catch(() => undefined);
  await worker?.close().catch(() => undefined);
  await server?.stop();
  await metrics?.close().catch(() => undefined);
  await log?.close();
}

const started: Started = {};
main(started).catch(async (err: unknown) => {
  if (err instanceof StartRefused) process.stderr.write(`${err.message}\n`);
  else log.error('cairn start failed', err);
  await stopAll(started).catch(() => undefined);
  process.exit(1);
});
