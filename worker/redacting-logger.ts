/**
 * The worker process's Temporal runtime: its logger and its metrics.
 *
 * Every log line — the SDK's own (an activity that failed, with its message) and the native
 * core's, forwarded — is one JSON object (`time`, `level`, `message`, the agent and step it
 * concerns when it concerns one, then the SDK's metadata), with every string passed through the
 * secret redactor before it is printed, so the worker log never shows a key an endpoint echoed.
 *
 * With a metrics address, the runtime serves Prometheus metrics on `http://<address>/metrics`:
 * the SDK's (prefixed `temporal_`) and Cairn's own (worker/telemetry/cairn-metrics.ts), which
 * are recorded through the same runtime meter — one endpoint for both. The address is a loopback
 * one of worker/telemetry/metrics-endpoint.ts, which serves the configured address with a Host check.
 */
import { DefaultLogger, Runtime, type LogEntry, type LogLevel } from '@temporalio/worker';
import type { Redactor } from '../config/redact-secrets';
import { LLM_LATENCY_BUCKETS, METRIC_NAMES, STEP_DURATION_BUCKETS } from './telemetry/cairn-metrics';
import { AGENT_WORKFLOW_TYPE } from '../workflows/model/agent/agent-contract';

/** The agent and step a workflow id belongs to (docs/contracts.md: steps are `<agent id>/step-<step id>`). */
export function logOwner(workflowId: unknown, workflowType: unknown): { agentId?: string; stepId?: string } {
  if (typeof workflowId !== 'string') return {};
  const step = /^(.+)\/step-([^/]+)$/.exec(workflowId);
  if (step && workflowType !== AGENT_WORKFLOW_TYPE) return { agentId: step[1], stepId: step[2] };
  return workflowType === AGENT_WORKFLOW_TYPE ? { agentId: workflowId } : {};
}

/** A JSON-safe copy of a metadata value, every string redacted (errors keep name and message). */
function plain(value: unknown, redact: Redactor, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (depth > 5) return '[nested]';
  if (value instanceof Error) {
    const cause = value.cause === undefined ? {} : { cause: plain(value.cause, redact, depth + 1) };
    const type = 'type' in value && typeof value.type === 'string' ? { type: value.type } : {};
    return { name: value.name, message: redact(value.message), ...type, ...cause };
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => plain(v, redact, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, redact, depth + 1)]));
}

/** One log entry as a JSON line: time, level, message, agent and step ids, then its metadata, all redacted. */
export function formatLogEntry(entry: LogEntry, redact: Redactor): string {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  const meta = entry.meta ?? {};
  return JSON.stringify({
    time,
    level: entry.level,
    message: redact(entry.message),
    ...logOwner(meta.workflowId, meta.workflowType),
    ...(plain(meta, redact) as Record<string, unknown>),
  });
}

/** Runtime options beside the logger. */
export interface RuntimeTelemetry {
  /** `host:port` the runtime's Prometheus exporter listens on (metrics-endpoint.ts's); none when absent. */
  metricsAddress?: string;
}

/**
 * Installs the runtime with the redacting logger (native logs forwarded to it) and, when asked,
 * the Prometheus endpoint. Call once, first thing in a worker process, before any connection.
 */
export function installRedactingRuntime(
  redact: Redactor,
  level: LogLevel = 'INFO',
  { metricsAddress }: RuntimeTelemetry = {},
): void {
  const logger = new DefaultLogger(level, (entry) => {
    const stream = entry.level === 'WARN' || entry.level === 'ERROR' ? process.stderr : process.stdout;
    stream.write(`${formatLogEntry(entry, redact)}\n`);
  });
  Runtime.install({
    logger,
    telemetryOptions: {
      logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} },
      ...(metricsAddress
        ? {
            metrics: {
              prometheus: {
                bindAddress: metricsAddress,
                // Seconds, as Prometheus expects, for the SDK's durations too.
                useSecondsForDurations: true,
                histogramBucketOverrides: {
                  [METRIC_NAMES.llmLatency]: LLM_LATENCY_BUCKETS,
                  [METRIC_NAMES.stepDuration]: STEP_DURATION_BUCKETS,
                },
              },
            },
          }
        : {}),
    },
  });
}
