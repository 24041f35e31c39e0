/**
 * The lean floor's worker in its own process (benchmark 9), as benchmark 8 runs Cairn's: one
 * Temporal worker with the SDK's default settings serving the lean bundle (prebuilt, from
 * `BENCH_WORKFLOW_BUNDLE`) and the chat activity on one task queue (`BENCH_TASK_QUEUE`; with
 * `BENCH_LLM_QUEUE=1` the activity on `<queue>-llm`, served by a second worker), its
 * runtime's metrics on `BENCH_METRICS_ADDRESS`. Says "Worker on task queue" once it polls;
 * SIGTERM drains it.
 */
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { leanThreadActivities } from './lean-thread-activities';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function main(): Promise<void> {
  Runtime.install({
    logger: new DefaultLogger('WARN'),
    telemetryOptions: {
      metrics: { prometheus: { bindAddress: required('BENCH_METRICS_ADDRESS'), useSecondsForDurations: true } },
    },
  });
  const taskQueue = required('BENCH_TASK_QUEUE');
  const connection = await NativeConnection.connect({ address: required('TEMPORAL_ADDRESS') });
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle: { codePath: required('BENCH_WORKFLOW_BUNDLE') },
    activities: leanThreadActivities(required('OPENAI_BASE_URL')),
  });
  // With BENCH_LLM_QUEUE=1 the model calls have a queue of their own, polled by a second worker.
  const llm =
    process.env['BENCH_LLM_QUEUE'] === '1'
      ? await Worker.create({
          connection,
          taskQueue: `${taskQueue}-llm`,
          activities: leanThreadActivities(required('OPENAI_BASE_URL')),
        })
      : undefined;
  const running = Promise.all([worker.run(), llm?.run()]);
  console.log(`Worker on task queue "${taskQueue}" (lean floor${llm ? ', model calls on their own queue' : ''})`);
  await running;
  await connection.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
