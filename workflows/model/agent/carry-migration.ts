/**
 * Reads a carry written by any release (docs/operations.md#changing-workflow-code) with the
 * versioned reader (model/rollover/versioned-reader.ts): parse it with the schema of the version it
 * names, step it up one version at a time, then parse the result with the current schema
 * (agent-carry.ts). So a run on new code resumes an agent whose previous run was on old code.
 *
 * The schemas here are frozen: each describes what one old version's code wrote and is never
 * changed again. They check only the envelope; the state, conversation and catalogue inside are
 * checked by the current schema once the steps up have run.
 */
import { z } from 'zod';
import { readVersioned, versionStep, type VersionedContract } from '../rollover/versioned-reader';
import { agentCarrySchema, CARRY_VERSION, resumePointSchema, type AgentCarry } from './agent-carry';

/**
 * Version 1, release 0.1.0: no `version` field. It also held `runs`, a count of runs that
 * nothing read (dropped since; some 0.1.0 carries have it, some not).
 */
const carryV1Schema = z.object({
  version: z.literal(1).optional(),
  resumeAt: resumePointSchema,
  state: z.record(z.string(), z.unknown()),
  planner: z.array(z.unknown()),
  tools: z.array(z.unknown()),
  stepRoutes: z.record(z.string(), z.unknown()),
  runs: z.number().optional(),
});

/** Any version's carry, as it crosses continue-as-new: what `agentWorkflow` may receive. */
export type CarriedAgent = z.input<typeof carryV1Schema> | AgentCarry;

/** The agent's carry: its current version and the steps up to it, oldest first. */
const AGENT_CARRY: VersionedContract<AgentCarry> = {
  name: 'carry',
  version: CARRY_VERSION,
  schema: agentCarrySchema,
  steps: [versionStep(1, carryV1Schema, ({ runs: _dropped, ...carry }) => ({ ...carry, version: 2 }))],
};

/**
 * The current carry from one of any version; errors come back as `path: message` text. A carry
 * of a newer version than this code knows is refused (it only arises if a release is rolled
 * back after agents moved on): the agent waits for code that can read it rather than lose what
 * it carried.
 */
export function migrateCarry(raw: unknown): { ok: true; carry: AgentCarry } | { ok: false; error: string } {
  const read = readVersioned(AGENT_CARRY, raw);
  return read.ok ? { ok: true, carry: read.value } : read;
}

/**
 * The carry a run received, as the current version. An unreadable carry throws a plain Error,
 * which fails the workflow task, not the agent: Temporal retries the task, so the agent waits
 * (its history intact) until a worker whose code can read the carry picks it up.
 */
export function readCarry(raw: unknown): AgentCarry {
  const read = migrateCarry(raw);
  if (!read.ok) throw new Error(`cannot read the carry of the previous run: ${read.error}`);
  return read.carry;
}
