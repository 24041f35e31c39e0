/**
 * `npm run worker`: one Cairn worker configured by the environment. Run as many as you like
 * on the same task queue to scale out; SIGINT / SIGTERM drain it gracefully.
 */
import { loadConfigOrExit } from '../config/load-config-or-exit';
import { createWorker } from './create-worker';
import { describeLlm } from './describe-llm';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const cairn = await createWorker({ config });
  console.log(`Worker on task queue "${config.taskQueue}" at ${config.temporal.address}; ${describeLlm(config)}`);
  await cairn.run();
  await cairn.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
