/**
 * Reads a value that crosses releases — what a run hands the next when it continues as new (a
 * carry), or what an agent hands a step (its input) — whichever release wrote it
 * (docs/operations.md#the-carry-is-a-versioned-contract). The value names its `version`; none
 * means version 1, what releases wrote before values were versioned. It is parsed with the
 * frozen schema of the version it names, stepped up one version at a time, then parsed with the
 * current schema. Pure zod: safe in the workflow sandbox, and deterministic, so reading adds no
 * command.
 */
import { z } from 'zod';
import { issueLines } from '../../base/issue-lines';

/** A value read as the current version, or why it could not be (`path: message` text). */
export type VersionedRead<T> = { ok: true; value: T } | { ok: false; error: string };

/** One step up: reads a value of version `from` and returns the input of version `from` + 1. */
export interface VersionStep {
  from: number;
  apply: (raw: unknown) => { ok: true; value: unknown } | { ok: false; issues: z.ZodError };
}

/**
 * A step up from the version `schema` describes. That schema is frozen: it describes what one
 * old version's code wrote and is never changed again.
 */
export function versionStep<S extends z.ZodType>(
  from: number,
  schema: S,
  up: (value: z.output<S>) => unknown,
): VersionStep {
  return {
    from,
    apply: (raw) => {
      const parsed = schema.safeParse(raw);
      return parsed.success ? { ok: true, value: up(parsed.data) } : { ok: false, issues: parsed.error };
    },
  };
}

/** A versioned value: what it is called, its current version and schema, and the steps up to it. */
export interface VersionedContract<T> {
  /** What the value is called in errors: `carry`, `step carry`, `step input`. */
  name: string;
  /** The version this code writes. */
  version: number;
  /** The schema of that version. */
  schema: z.ZodType<T>;
  /** The steps up from each older version to the next, oldest first. */
  steps: readonly VersionStep[];
}

const versionSchema = z.object({ version: z.number().int().min(1).optional() });

/**
 * The current version of `raw`, written by this or any earlier release. A value of a newer
 * version than this code knows is refused (it only arises if a release is rolled back after
 * runs moved on): the caller waits for code that can read it rather than lose what it holds.
 */
export function readVersioned<T>(contract: VersionedContract<T>, raw: unknown): VersionedRead<T> {
  const { name, version: current } = contract;
  const issues = (error: z.ZodError): string => issueLines(error, `(${name})`).join('; ');
  const named = versionSchema.safeParse(raw);
  if (!named.success) return { ok: false, error: `${name} version: ${issues(named.error)}` };
  const version = named.data.version ?? 1;
  if (version > current) {
    return { ok: false, error: `${name} version ${version} is newer than this code's ${current}` };
  }
  // Named from here on, so a version-1 value reads like any other once it is the current one.
  let value: unknown = named.data.version === undefined ? { ...(raw as object), version } : raw;
  for (const step of contract.steps.filter((s) => s.from >= version)) {
    const stepped = step.apply(value);
    if (!stepped.ok) return { ok: false, error: `${name} version ${step.from}: ${issues(stepped.issues)}` };
    value = stepped.value;
  }
  const read = contract.schema.safeParse(value);
  if (!read.success) return { ok: false, error: `${name} version ${current}: ${issues(read.error)}` };
  return { ok: true, value: read.data };
}
