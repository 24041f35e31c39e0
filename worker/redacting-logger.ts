/**
 * The worker process's Temporal runtime logger: every line — the SDK's own (an activity that
 * failed, with its message) and the native core's, forwarded — passes through the secret
 * redactor before it is printed, so the worker log never shows a key an endpoint echoed.
 */
import { inspect } from 'node:util';
import { DefaultLogger, Runtime, type LogEntry, type LogLevel } from '@temporalio/worker';
import type { Redactor } from '../config/redact-secrets';

/** One log entry as a printed line: time, level, message, then its metadata, all redacted. */
export function formatLogEntry(entry: LogEntry, redact: Redactor): string {
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  const meta =
    entry.meta && Object.keys(entry.meta).length > 0
      ? ` ${inspect(entry.meta, { depth: 5, breakLength: Infinity })}`
      : '';
  return redact(`${time} [${entry.level}] ${entry.message}${meta}`);
}

/**
 * Installs the runtime with the redacting logger (native logs forwarded to it). Call once, first
 * thing in a worker process, before any connection is made.
 */
export function installRedactingRuntime(redact: Redactor, level: LogLevel = 'INFO'): void {
  const logger = new DefaultLogger(level, (entry) => {
    const stream = entry.level === 'WARN' || entry.level === 'ERROR' ? process.stderr : process.stdout;
    stream.write(`${formatLogEntry(entry, redact)}\n`);
  });
  Runtime.install({ logger, telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } } });
}
