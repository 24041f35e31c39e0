/**
 * `npm run worker`: one Cairn worker configured by the environment. Run as many as you like
 * on the same task queue to scale out; SIGINT / SIGTERM drain it gracefully.
 */
import { loadConfigOrExit } from '../config/load-config-or-exit';
import { inspect } from 'node:util';
import { configuredSecrets, createRedactor, type Redactor } from '../config/redact-secrets';
import { createWorker } from './create-worker';
import { describeLlm } from './describe-llm';
import { installRedactingRuntime } from './redacting-logger';

/** Pattern-based until the configuration names the secrets too. */
let redact: Redactor = createRedactor([]);

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  redact = createRedactor(configuredSecrets(config));
  installRedactingRuntime(redact);
  const cairn = await createWorker({ config });
  console.log(`Worker on task queue "${config.taskQueue}" at ${config.temporal.address}; ${describeLlm(config)}`);
  await cairn.run();
  await cairn.close();
}

main().catch((err: unknown) => {
  console.error(redact(inspect(err)));
  process.exit(1);
});
