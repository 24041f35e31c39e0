/**
 * Tracing for a worker: Temporal's OpenTelemetry interceptors on activities, the sink that takes
 * the spans of workflow code out of the sandbox, and the client interceptor that opens a trace
 * when an agent starts — all over one span processor. The workflow interceptors are always in
 * the bundle (worker/workflows-path.ts); with tracing off the sink drops what they export, so no
 * span leaves the process and the same bundle serves both.
 */
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
  type OpenTelemetrySinks,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import { startTraceProvider } from '../../temporal/tracing/trace-provider';

/** What a worker needs to trace: interceptors, the workflow span sink, and a flush at the end. */
export interface Tracing {
  /** Activity interceptors: Temporal's span around each activity (Cairn's labels go inside it). */
  activityInterceptors: ActivityInterceptorsFactory[];
  /** Client interceptors: a span around starting, signalling or updating a workflow. */
  clientInterceptors: WorkflowClientInterceptor[];
  sinks: InjectedSinks<OpenTelemetrySinks>;
  /** Exports what is buffered and stops the processor. */
  shutdown: () => Promise<void>;
}

/** The sinks of a worker that does not trace: workflow spans are dropped. */
export function droppedSpanSinks(): InjectedSinks<OpenTelemetrySinks> {
  return { exporter: { export: { fn: () => undefined } } };
}

/** No tracing: nothing intercepted, workflow spans dropped. */
export const NO_TRACING: Tracing = {
  activityInterceptors: [],
  clientInterceptors: [],
  sinks: droppedSpanSinks(),
  shutdown: () => Promise.resolve(),
};

/** Tracing over `processor` (the configured one, or a test's in-memory one); none without one. */
export function createTracing(processor: SpanProcessor | undefined): Tracing {
  if (!processor) return NO_TRACING;
  const { tracer, resource, shutdown } = startTraceProvider(processor);
  return {
    activityInterceptors: [
      (ctx) => ({
        inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }),
        outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
    ],
    clientInterceptors: [new OpenTelemetryWorkflowClientInterceptor({ tracer })],
    sinks: { exporter: makeWorkflowExporter(processor, resource) },
    shutdown,
  };
}
