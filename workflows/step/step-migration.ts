/**
 * Reads the input and the carry a step run receives, whichever release wrote them, through the
 * versioned reader (model/rollover/versioned-reader.ts, docs/operations.md#the-carry-is-a-versioned-contract):
 * an agent on an older release may start a step that this code runs, and a step run may continue
 * as new onto this code. Both are at version 1, so there is no step up yet: one is added here,
 * with a frozen schema of the version it steps up from, when a version is raised.
 */
import type { z } from 'zod';
import { readVersioned, type VersionedContract, type VersionedRead } from '../model/rollover/versioned-reader';
import {
  STEP_CARRY_VERSION,
  STEP_INPUT_VERSION,
  stepCarrySchema,
  stepInputSchema,
  type StepCarry,
  type StepInput,
} from './step-types';

/** A step input of any version, as `stepWorkflow` may receive it (version 1 was written without `version`). */
export type ReceivedStepInput = Omit<z.input<typeof stepInputSchema>, 'version'> & { version?: number };

/** A step carry of any version, as `stepWorkflow` may receive it (version 1 was written without `version`). */
export type ReceivedStepCarry = Omit<z.input<typeof stepCarrySchema>, 'version'> & { version?: number };

const STEP_INPUT: VersionedContract<StepInput> = {
  name: 'step input',
  version: STEP_INPUT_VERSION,
  schema: stepInputSchema,
  steps: [],
};

const STEP_CARRY: VersionedContract<StepCarry> = {
  name: 'step carry',
  version: STEP_CARRY_VERSION,
  schema: stepCarrySchema,
  steps: [],
};

/** The current step input from one of any version; errors come back as `path: message` text. */
export function migrateStepInput(raw: unknown): VersionedRead<StepInput> {
  return readVersioned(STEP_INPUT, raw);
}

/** The current step carry from one of any version; errors come back as `path: message` text. */
export function migrateStepCarry(raw: unknown): VersionedRead<StepCarry> {
  return readVersioned(STEP_CARRY, raw);
}

/**
 * The input a step run received, as the current version. One that cannot be read throws a plain
 * Error, which fails the workflow task, not the step: Temporal retries the task, so the step
 * waits (its history intact) until a worker whose code can read it picks it up.
 */
export function readStepInput(raw: unknown): StepInput {
  const read = migrateStepInput(raw);
  if (!read.ok) throw new Error(`cannot read the step's input: ${read.error}`);
  return read.value;
}

/** The carry a step run received from its previous run, as the current version; throws as readStepInput. */
export function readStepCarry(raw: unknown): StepCarry {
  const read = migrateStepCarry(raw);
  if (!read.ok) throw new Error(`cannot read the carry of the step's previous run: ${read.error}`);
  return read.value;
}
