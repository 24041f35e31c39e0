/**
 * Tracing for processes that start agents (the web server, the CLI): the client interceptor
 * that opens an agent's trace and carries it to the workflow in headers, so the worker's spans
 * join it. Set up once per process from its configuration; no interceptor when tracing is off.
 * Kept apart from the worker's tracing so that clients never load worker code.
 */
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import type { TelemetryConfig } from '../../config/telemetry-config';
import { configuredSpanProcessor, startTraceProvider } from './trace-provider';

let interceptors: WorkflowClientInterceptor[] | undefined;

/** The client interceptors of this process (the first call's configuration decides). */
export function clientTracingInterceptors(telemetry: TelemetryConfig): WorkflowClientInterceptor[] {
  if (interceptors) return interceptors;
  const processor = configuredSpanProcessor(telemetry);
  if (!processor) return (interceptors = []);
  const { tracer, shutdown } = startTraceProvider(processor);
  // Short-lived processes (the CLI) export what they buffered before they exit.
  process.once('beforeExit', () => void shutdown());
  return (interceptors = [new OpenTelemetryWorkflowClientInterceptor({ tracer })]);
}
