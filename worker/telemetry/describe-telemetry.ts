/** One line saying where a worker's metrics and traces go. */
import type { TelemetryConfig } from '../../config/telemetry-config';

export function describeTelemetry({ metrics, traces }: TelemetryConfig): string {
  const m = metrics ? `metrics on http://${metrics.address}/metrics` : 'metrics off (CAIRN_METRICS_ADDRESS)';
  const t = traces
    ? `traces to ${traces.exporters.join(' and ')}`
    : 'traces off (OTEL_TRACES_EXPORTER / OTEL_EXPORTER_OTLP_ENDPOINT)';
  return `Telemetry: ${m}; ${t}`;
}
