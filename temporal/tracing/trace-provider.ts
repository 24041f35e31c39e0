/**
 * The OpenTelemetry tracer of a Cairn process (worker, web server, CLI): one span processor —
 * the configured exporters, or a test's — under a resource named by the standard variables, and
 * the process-wide context manager and W3C propagator that Temporal's interceptors rely on to
 * find the active span and carry it in headers.
 */
import { context, propagation, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { envDetectorSync, Resource } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { TelemetryConfig } from '../../config/telemetry-config';
import { AsyncLocalContextManager } from './async-context';

/** The service name spans carry unless `OTEL_SERVICE_NAME` says otherwise. */
export const DEFAULT_SERVICE_NAME = 'cairn';

/** The span processor the configuration asks for, or undefined when tracing is off. */
export function configuredSpanProcessor(telemetry: TelemetryConfig): SpanProcessor | undefined {
  const exporters = telemetry.traces?.exporters ?? [];
  const processors = exporters.map(
    // The OTLP exporter reads OTEL_EXPORTER_OTLP_* (endpoint, headers, timeout) itself.
    (name) => new BatchSpanProcessor(name === 'otlp' ? new OTLPTraceExporter() : new ConsoleSpanExporter()),
  );
  if (processors.length <= 1) return processors[0];
  return {
    onStart: (span, parent) => processors.forEach((p) => p.onStart(span, parent)),
    onEnd: (span) => processors.forEach((p) => p.onEnd(span)),
    forceFlush: async () => void (await Promise.all(processors.map((p) => p.forceFlush()))),
    shutdown: async () => void (await Promise.all(processors.map((p) => p.shutdown()))),
  };
}

/** A tracer over one span processor. */
export interface TraceProvider {
  tracer: Tracer;
  resource: Resource;
  /** Exports what is buffered and stops the processor. */
  shutdown: () => Promise<void>;
}

/** Starts a tracer over `processor`, setting the process's context manager and propagator. */
export function startTraceProvider(processor: SpanProcessor): TraceProvider {
  // The first call in a process wins; later ones (tests) find them set and change nothing.
  context.setGlobalContextManager(new AsyncLocalContextManager());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // `OTEL_SERVICE_NAME` / `OTEL_RESOURCE_ATTRIBUTES` override the default name.
  const resource = new Resource({ 'service.name': DEFAULT_SERVICE_NAME, ...envDetectorSync.detect().attributes });
  const provider = new BasicTracerProvider({ resource, spanProcessors: [processor] });
  return { tracer: provider.getTracer('cairn'), resource, shutdown: () => provider.shutdown() };
}
