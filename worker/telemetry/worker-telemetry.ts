/**
 * Everything observability adds to a Cairn worker, in one place so worker/create-worker.ts only
 * plugs it in: tracing (when configured, or a test's span processor), Cairn's activity
 * interceptor for span labels and LLM / tool metrics, and — when the worker serves metrics —
 * the poller of the level gauges.
 */
import { Runtime, type ActivityInterceptorsFactory, type InjectedSinks } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry';
import type { TelemetryConfig } from '../../config/telemetry-config';
import { activityTelemetry } from './activity-telemetry';
import { createCairnMetrics } from './cairn-metrics';
import { modelLabeller } from './model-label';
import { createTracing } from './tracing';
import { configuredSpanProcessor } from '../../temporal/tracing/trace-provider';
import { startVisibilityGauges } from './visibility-gauges';

export interface WorkerTelemetry {
  /** Activity interceptors for both Temporal workers: Temporal's spans, then Cairn's labels and metrics. */
  activityInterceptors: ActivityInterceptorsFactory[];
  /** The workflow span sink (drops spans when tracing is off). */
  sinks: InjectedSinks<OpenTelemetrySinks>;
  /** Stops the gauge poller and flushes spans. */
  close: () => Promise<void>;
}

export interface WorkerTelemetryOptions {
  telemetry: TelemetryConfig;
  /** Labels LLM calls whose agent names no model. */
  defaultModel: string;
  /** The model names the configuration knows (CAIRN_LLM_MODELS, the price table): labels; others are `other`. */
  knownModels: readonly string[];
  /** Reads the level gauges when the worker serves metrics. */
  client: Client;
  taskQueue: string;
  /** Replaces the configured span processor (tests collect spans in memory). */
  spanProcessor?: SpanProcessor;
}

/** Sets up a worker's telemetry from the configuration. */
export function createWorkerTelemetry(options: WorkerTelemetryOptions): WorkerTelemetry {
  const tracing = createTracing(options.spanProcessor ?? configuredSpanProcessor(options.telemetry));
  const runtime = Runtime.instance();
  const metrics = createCairnMetrics(runtime.metricMeter);
  const endpoint = options.telemetry.metrics;
  const gauges = endpoint
    ? startVisibilityGauges({
        client: options.client,
        taskQueue: options.taskQueue,
        metrics,
        intervalMs: endpoint.pollMs,
        onError: (err) => {
          runtime.logger.warn('Could not read agent levels for metrics', { error: String(err) });
        },
      })
    : undefined;
  return {
    activityInterceptors: [
      ...tracing.activityInterceptors,
      activityTelemetry(metrics, {
        defaultModel: options.defaultModel,
        labelOf: modelLabeller([options.defaultModel, ...options.knownModels]),
      }),
    ],
    sinks: tracing.sinks,
    close: async () => {
      await gauges?.stop();
      await tracing.shutdown();
    },
  };
}
