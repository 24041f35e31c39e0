/**
 * Exit codes of `cairn` and how errors map to them: 0 completed / done, 1 failed (or an error
 * such as an unknown agent or a rejected answer), 2 bad usage or configuration, 3 cancelled.
 */
import { ClientError } from '../client-error';
import { ApiRefusal } from './cairn-api';
import type { RunOutcome } from '../agents/cli/drive-agent';

export const EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 3, interrupted: 130 } as const;

/** A usage error: a bad argument or option value (exit 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The exit code for how a run ended. */
export function exitCodeOf(status: RunOutcome['status']): number {
  return status === 'completed' ? EXIT.ok : status === 'cancelled' ? EXIT.cancelled : EXIT.failed;
}

/** Refusals of what was sent, fixed by sending something else: exit 2 like a bad flag. */
const USAGE_CODES: ReadonlySet<string> = new Set([
  'INVALID_INPUT',
  'UPLOAD_TOO_LARGE',
  'UPLOAD_TYPE_REFUSED',
  'UPLOAD_NAME_TOO_LONG',
]);

/** The exit code for an error: usage, invalid input and refused files (`--file`) 2, anything else 1. */
export function exitCodeForError(err: unknown): number {
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof ClientError && err.code === 'INVALID_INPUT') return EXIT.usage;
  if (err instanceof ApiRefusal && USAGE_CODES.has(err.code)) return EXIT.usage;
  return EXIT.failed;
}
