/**
 * Observability settings: the worker's Prometheus endpoint (Cairn's own) and tracing through
 * the standard OpenTelemetry variables, checked like the rest of the configuration. Both are off
 * unless configured: no endpoint is opened and no span leaves the process.
 *
 * Tracing is on when `OTEL_TRACES_EXPORTER` names `otlp` or `console`, or when it is unset and an
 * OTLP endpoint is given (`OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`);
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turns it off. The OTLP exporter reads its
 * endpoint, headers and timeout from those variables itself, and the resource takes
 * `OTEL_SERVICE_NAME` / `OTEL_RESOURCE_ATTRIBUTES`, as every OpenTelemetry SDK does.
 */
import { z } from 'zod';
import { hostNameList } from './host-names';

/** How often a worker with a metrics endpoint reads agents and interactions from visibility. */
export const DEFAULT_METRICS_POLL_MS = 15_000;

const exporters = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((p) => p.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(['otlp', 'console', 'none'], { error: 'expected otlp, console or none' })));

const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });

/** The environment variables of observability, merged into the configuration schema. */
export const telemetryEnvShape = {
  /**
   * `host:port` the worker serves Prometheus metrics on (`/metrics`); unset: no endpoint. The
   * host is required so that exposing metrics beyond loopback is a choice (`0.0.0.0:9464`).
   */
  CAIRN_METRICS_ADDRESS: z
    .string()
    .trim()
    .regex(
      /^([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):([1-9]\d{0,4})$/,
      'expected host:port with a port above 0, e.g. 127.0.0.1:9464',
    )
    .refine((s) => Number(s.slice(s.lastIndexOf(':') + 1)) <= 65535, 'expected a port up to 65535')
    .optional(),
  /**
   * Host names `/metrics` answers to besides loopback names, IP addresses and the address's own
   * host, comma-separated: the names scrapers use when they are not addresses.
   */
  CAIRN_METRICS_ALLOWED_HOSTS: hostNameList.optional(),
  /** Milliseconds between the worker's reads of agents by phase and open interactions. */
  CAIRN_METRICS_POLL_MS: z.coerce
    .number({ error: 'expected milliseconds' })
    .int('expected a whole number')
    .min(100, 'expected at least 100 ms')
    .optional(),
  OTEL_SDK_DISABLED: z.enum(['true', 'false'], { error: 'expected true or false' }).optional(),
  OTEL_TRACES_EXPORTER: exporters.optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl.optional(),
};

type TelemetryEnv = { [K in keyof typeof telemetryEnvShape]?: z.output<(typeof telemetryEnvShape)[K]> };

/** Observability as configured. */
export interface TelemetryConfig {
  /** The Prometheus endpoint, when configured; `allowedHosts` from CAIRN_METRICS_ALLOWED_HOSTS. */
  metrics?: { address: string; pollMs: number; allowedHosts?: string[] };
  /** Where spans go, when tracing is on. */
  traces?: { exporters: ('otlp' | 'console')[] };
}

/** The observability settings of a parsed environment. */
export function telemetrySettings(e: TelemetryEnv): TelemetryConfig {
  const metrics = e.CAIRN_METRICS_ADDRESS
    ? {
        address: e.CAIRN_METRICS_ADDRESS,
        pollMs: e.CAIRN_METRICS_POLL_MS ?? DEFAULT_METRICS_POLL_MS,
        ...(e.CAIRN_METRICS_ALLOWED_HOSTS?.length ? { allowedHosts: e.CAIRN_METRICS_ALLOWED_HOSTS } : {}),
      }
    : undefined;
  return { ...(metrics ? { metrics } : {}), ...tracesOf(e) };
}

function tracesOf(e: TelemetryEnv): Pick<TelemetryConfig, 'traces'> {
  if (e.OTEL_SDK_DISABLED === 'true') return {};
  const named = e.OTEL_TRACES_EXPORTER;
  if (named === undefined) {
    const endpoint = e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? e.OTEL_EXPORTER_OTLP_ENDPOINT;
    return endpoint ? { traces: { exporters: ['otlp'] } } : {};
  }
  if (named.includes('none')) return {};
  const chosen = named.filter((n): n is 'otlp' | 'console' => n !== 'none');
  return chosen.length > 0 ? { traces: { exporters: [...new Set(chosen)] } } : {};
}
