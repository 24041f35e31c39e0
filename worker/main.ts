/**
 * `npm run worker`: one Cairn worker configured by the environment. Run as many as you like
 * on the same task queue to scale out; SIGINT / SIGTERM drain it gracefully; SIGHUP reloads the
 * approval policy file.
 */
import { llmTaskQueue } from '../workflows/base/llm-task-queue';
import { loadConfigOrExit } from '../config/load-config-or-exit';
import { reloadPolicyOnHangUp } from './reload-policy';
import { inspect } from 'node:util';
import { configuredSecrets, createRedactor, type Redactor } from '../config/redact-secrets';
import { createWorker } from './create-worker';
import { WorkerRefusal } from './search-attribute-check';
import { configuredVersion, describeVersion, joinDeployment } from '../temporal/deployment-version';
import { describeLlm } from './describe-llm';
import { probeLlmServer } from './probe-llm';
import { describeTelemetry } from './telemetry/describe-telemetry';
import { serveMetrics } from './telemetry/metrics-endpoint';
import { installRedactingRuntime } from './redacting-logger';
import { prebuiltWorkflowBundle } from './workflows-path';
import { PARSE_LIMITS } from '../activities/tools/builtin/document-text';
import { memoryBound } from '../activities/tools/builtin/parser-memory';

/** Pattern-based until the configuration names the secrets too. */
let redact: Redactor = createRedactor([]);

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  redact = createRedactor(configuredSecrets(config));
  // The configured address gets the Host-checked endpoint; the runtime's exporter sits behind it.
  const metrics = config.telemetry.metrics ? await serveMetrics(config.telemetry.metrics) : undefined;
  installRedactingRuntime(redact, 'INFO', { metricsAddress: metrics?.exporterAddress });
  console.log(prebuiltWorkflowBundle() ? 'Workflows: the prebuilt bundle' : 'Workflows: bundling workflows/ at start');
  const version = configuredVersion(config);
  const cairn = await createWorker({ config, ...(version ? { version } : {}) });
  console.log(
    `Worker on task queue "${config.taskQueue}" at ${config.temporal.address} (${describeVersion(version)}); ${describeLlm(config)}`,
  );
  console.log(describeTelemetry(config.telemetry));
  console.log(`Document parsers: ${memoryBound().describe(PARSE_LIMITS.memoryMb)}`);
  for (const note of cairn.notes) console.warn(note);
  if (!config.llm.demo) for (const line of await probeLlmServer(config.llm)) console.log(line);
  // Each named endpoint is checked as the default one is, and said where its calls are served.
  for (const endpoint of config.llm.endpoints) {
    console.log(
      `Model endpoint "${endpoint.name}": ${endpoint.baseUrl}, model ${endpoint.model}, on task queue ${llmTaskQueue(config.taskQueue, endpoint.name)}`,
    );
    for (const line of await probeLlmServer({ ...config.llm, baseUrl: endpoint.baseUrl, model: endpoint.model }))
      console.log(line);
  }
  reloadPolicyOnHangUp(config);
  const running = cairn.run();
  // The version registers once the worker polls; a deployment's first version becomes current.
  if (version) console.log(await joinDeployment(config, version, 'if-none-current'));
  await running;
  await cairn.close();
}

main().catch((err: unknown) => {
  // A refusal is one line that says what to do; anything else keeps its stack for the log.
  console.error(err instanceof WorkerRefusal ? err.message : redact(inspect(err)));
  process.exit(1);
});
