/**
 * Observability configuration: metrics and traces are off unless configured, the standard
 * OTEL_* variables decide tracing as in other OpenTelemetry SDKs, and bad values are refused
 * with one line naming the variable — the rest of the environment stays as checked as before.
 */
import { loadConfig } from '../../config/config';
import { DEFAULT_METRICS_POLL_MS } from '../../config/telemetry-config';
import { errorLines } from '../harness/config-errors';
import { allowedHostNames } from '../../config/host-names';
import { metricsHostAllowed } from '../../worker/telemetry/metrics-endpoint';

test('with nothing configured there is no metrics endpoint and no tracing', () => {
  expect(loadConfig({}).telemetry).toEqual({});
});

test('CAIRN_METRICS_ADDRESS opens the endpoint, polled every CAIRN_METRICS_POLL_MS', () => {
  expect(loadConfig({ CAIRN_METRICS_ADDRESS: '127.0.0.1:9464' }).telemetry.metrics).toEqual({
    address: '127.0.0.1:9464',
    pollMs: DEFAULT_METRICS_POLL_MS,
  });
  expect(loadConfig({ CAIRN_METRICS_ADDRESS: '0.0.0.0:9464', CAIRN_METRICS_POLL_MS: '500' }).telemetry.metrics).toEqual(
    { address: '0.0.0.0:9464', pollMs: 500 },
  );
  expect(loadConfig({ CAIRN_METRICS_ADDRESS: '[::1]:9464' }).telemetry.metrics?.address).toBe('[::1]:9464');
});

test('a metrics address without a host or a usable port, or a tiny poll interval, is refused by name', () => {
  for (const address of ['9464', ':9464', '127.0.0.1', '127.0.0.1:0', '127.0.0.1:70000', 'http://127.0.0.1:9464']) {
    expect(errorLines({ CAIRN_METRICS_ADDRESS: address })).toEqual([
      expect.stringMatching(/^CAIRN_METRICS_ADDRESS: expected host:port|^CAIRN_METRICS_ADDRESS: expected a port/),
    ]);
  }
  expect(errorLines({ CAIRN_METRICS_ADDRESS: '127.0.0.1:9464', CAIRN_METRICS_POLL_MS: '10' })).toEqual([
    'CAIRN_METRICS_POLL_MS: expected at least 100 ms, got "10"',
  ]);
});

test('an OTLP endpoint turns tracing on; OTEL_TRACES_EXPORTER chooses; none or OTEL_SDK_DISABLED turn it off', () => {
  const traces = (env: Record<string, string>) => loadConfig(env).telemetry.traces;
  expect(traces({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({ exporters: ['otlp'] });
  expect(traces({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toEqual({
    exporters: ['otlp'],
  });
  expect(traces({ OTEL_TRACES_EXPORTER: 'console' })).toEqual({ exporters: ['console'] });
  expect(traces({ OTEL_TRACES_EXPORTER: 'otlp, console' })).toEqual({ exporters: ['otlp', 'console'] });
  expect(
    traces({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }),
  ).toBeUndefined();
  expect(traces({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBeUndefined();
});

test('an unknown exporter or an endpoint that is no http(s) URL is refused by name', () => {
  expect(errorLines({ OTEL_TRACES_EXPORTER: 'jaeger' })).toEqual([
    'OTEL_TRACES_EXPORTER: expected otlp, console or none, got "jaeger"',
  ]);
  expect(errorLines({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toEqual([
    'OTEL_EXPORTER_OTLP_ENDPOINT: expected an http(s) URL, got "collector:4318"',
  ]);
});

test('CAIRN_METRICS_ALLOWED_HOSTS names more hosts /metrics answers to; a URL or a port is refused by name', () => {
  const metrics = (extra: Record<string, string>) =>
    loadConfig({ CAIRN_METRICS_ADDRESS: '0.0.0.0:9464', ...extra }).telemetry.metrics;
  expect(metrics({ CAIRN_METRICS_ALLOWED_HOSTS: 'Scraper.Internal, ::1' })?.allowedHosts).toEqual([
    'scraper.internal',
    '[::1]',
  ]);
  expect(metrics({})?.allowedHosts).toBeUndefined();
  for (const bad of ['http://scraper.internal', 'scraper.internal:9464']) {
    expect(errorLines({ CAIRN_METRICS_ALLOWED_HOSTS: bad })).toEqual([
      expect.stringMatching(/^CAIRN_METRICS_ALLOWED_HOSTS: expected host names without port or scheme/),
    ]);
  }
});

test('the metrics Host check: loopback names, IP addresses and the listed names pass; other names do not', () => {
  const allowed = new Set(allowedHostNames('0.0.0.0', ['scraper.internal']));
  for (const host of [
    'localhost:9464',
    '127.0.0.1:9464',
    '[::1]:9464',
    '10.1.2.3:9464',
    '[fd00::5]',
    'scraper.internal',
  ])
    expect([host, metricsHostAllowed(host, allowed)]).toEqual([host, true]);
  for (const host of ['rebinding.example:9464', 'scraper.internal.evil.example', 'localhost.evil.example', ''])
    expect([host, metricsHostAllowed(host, allowed)]).toEqual([host, false]);
  expect(metricsHostAllowed(undefined, allowed)).toBe(false);
});
