/**
 * `npm start` — everything on the embedded defaults: the Temporal dev server (unless
 * TEMPORAL_ADDRESS points elsewhere, or one already answers on 7233) and a worker.
 * Prints where to look. Ctrl-C stops both.
 */
import { loadConfigOrExit } from '../config/load-config-or-exit';
import { createWorker } from '../worker/create-worker';
import { describeLlm } from '../worker/describe-llm';
import type { DevServer } from './dev-server';
import { EMBEDDED, isServing, startEmbeddedServer } from './embedded-server';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  let server: DevServer | undefined;
  if (!config.temporal.addressConfigured && !(await isServing(config.temporal.address))) {
    server = await startEmbeddedServer();
  }
  const { worker, close } = await createWorker({ config });
  const ui = config.temporal.addressConfigured ? '(your cluster’s UI)' : `http://${EMBEDDED.ip}:${EMBEDDED.uiPort}`;
  console.log(
    [
      '',
      'Cairn is running.',
      `  Temporal:    ${config.temporal.address} (namespace ${config.temporal.namespace})`,
      `  Temporal UI: ${ui}`,
      `  Task queue:  ${config.taskQueue}`,
      `  ${describeLlm(config)}`,
      '',
      'Try the LLM path end to end:',
      `  temporal workflow start --address ${config.temporal.address} --task-queue ${config.taskQueue} \\`,
      `    --type llmCheckWorkflow --input '{"prompt":"Say hello"}'`,
      '',
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  await worker.run(); // returns after SIGINT / SIGTERM once the worker has drained
  await close();
  await server?.stop();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
