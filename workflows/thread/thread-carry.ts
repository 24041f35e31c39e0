/**
 * What a thread run hands the next when it continues as new between turns: its turns not yet
 * folded into the summary, the summary, the title and the number of the next message. Nothing
 * runs then (no task turn, no queue, no message being routed), so nothing else is carried. A
 * contract between releases, versioned like the agent's (model/agent/agent-carry.ts,
 * carry-migration.ts): a carry of a newer version than this code reads is refused, so the thread
 * waits for code that can read it.
 */
import { z } from 'zod';
import { turnSchema, turnsSummarySchema } from '../contract/thread-contract';
import { tokenUsageSchema } from '../model/state/step-run-schema';
import { readVersioned, versionStep, type VersionedContract } from '../model/rollover/versioned-reader';

/** The version of the carry this code writes (raise it with a frozen schema and a step up). */
export const THREAD_CARRY_VERSION = 2;

/** The thread carry of the current version. */
export const threadCarrySchema = z.object({
  version: z.literal(THREAD_CARRY_VERSION),
  /** The turns not folded into `summary`, oldest first. */
  turns: z.array(turnSchema),
  /** The number the next message gets (1-based). */
  nextMessage: z.number().int().min(1),
  /** What the thread spent so far (absent: nothing yet). */
  usage: tokenUsageSchema.optional(),
  /** The thread's title, once its first message was routed. */
  title: z.string().optional(),
  /** The turns folded away (absent: none yet). */
  summary: turnsSummarySchema.optional(),
});

/** The thread carry of the current version. */
export type ThreadCarry = z.infer<typeof threadCarrySchema>;

/**
 * Version 1, release 0.3.0 (frozen): every turn, no title or summary. Checks the envelope; the
 * turns are checked by the current schema once stepped up.
 */
const threadCarryV1Schema = z.object({
  version: z.literal(1),
  turns: z.array(z.unknown()),
  nextMessage: z.number(),
  usage: z.unknown().optional(),
});

const THREAD_CARRY: VersionedContract<ThreadCarry> = {
  name: 'thread carry',
  version: THREAD_CARRY_VERSION,
  schema: threadCarrySchema,
  // A version-1 thread has no title yet (its next run asks for one) and has folded nothing.
  steps: [versionStep(1, threadCarryV1Schema, (carry) => ({ ...carry, version: 2 }))],
};

/** The carry of a run's current turns, spend and memory (its title and summary, when it has them). */
export function threadCarry(
  turns: ThreadCarry['turns'],
  nextMessage: number,
  usage: ThreadCarry['usage'],
  { title, summary }: Pick<ThreadCarry, 'title' | 'summary'>,
): ThreadCarry {
  return {
    version: THREAD_CARRY_VERSION,
    turns,
    nextMessage,
    usage,
    ...(title !== undefined ? { title } : {}),
    ...(summary ? { summary } : {}),
  };
}

/** The current carry from one of any version; errors as `path: message` text. */
export function migrateThreadCarry(raw: unknown): { ok: true; carry: ThreadCarry } | { ok: false; error: string } {
  const read = readVersioned(THREAD_CARRY, raw);
  return read.ok ? { ok: true, carry: read.value } : read;
}

/**
 * The carry a run received, as the current version. Unreadable: a plain Error, which fails the
 * workflow task, not the thread (Temporal retries it until a worker can read the carry).
 */
export function readThreadCarry(raw: unknown): ThreadCarry {
  const read = migrateThreadCarry(raw);
  if (!read.ok) throw new Error(`cannot read the carry of the previous run: ${read.error}`);
  return read.carry;
}
