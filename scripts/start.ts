/**
 * `npm start` — everything on the embedded defaults: the Temporal dev server (unless
 * TEMPORAL_ADDRESS points elsewhere, or one already answers on 7233), a worker, and the web
 * page with the HTTP API.
 * Prints where to look. Ctrl-C stops both.
 */
import { loadConfigOrExit } from '../config/load-config-or-exit';
import { serveApi } from '../client/http/serve-api';
import { configuredSecrets, createRedactor } from '../config/redact-secrets';
import { createWorker } from '../worker/create-worker';
import { installRedactingRuntime } from '../worker/redacting-logger';
import { describeLlm } from '../worker/describe-llm';
import { isServing, type DevServer } from './dev-server';
import { EMBEDDED, startEmbeddedServer } from './embedded-server';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  installRedactingRuntime(createRedactor(configuredSecrets(config)));
  let server: DevServer | undefined;
  if (!config.temporal.addressConfigured && !(await isServing(config.temporal.address))) {
    server = await startEmbeddedServer();
  }
  const cairn = await createWorker({ config });
  const api = await serveApi(config);
  const ui = config.temporal.addressConfigured ? '(your cluster’s UI)' : `http://${EMBEDDED.ip}:${EMBEDDED.uiPort}`;
  console.log(
    [
      '',
      'Cairn is running.',
      `  Temporal:    ${config.temporal.address} (namespace ${config.temporal.namespace})`,
      `  Temporal UI: ${ui}`,
      `  Task queue:  ${config.taskQueue}`,
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
  await cairn.run(); // returns after SIGINT / SIGTERM once both workers have drained
  await api.close();
  await cairn.close();
  await server?.stop();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
