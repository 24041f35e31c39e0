/**
 * Kept carries: what a run handed the next when it continued as new, as JSON, per release —
 * `test/fixtures/carry/<release>/<scenario>.json` for an agent, `<scenario>.step.json` for a
 * step, `<scenario>.thread.json` for a thread. Taken from a recorded history (the continue-as-new event's second argument, decoded
 * with the SDK's payload converter), so a kept carry is exactly what that release's code wrote.
 * The carry tests read every kept carry of every release with the current code
 * (workflows/model/agent/carry-migration.ts, workflows/step/step-migration.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { currentVersion, isDevVersion, isVersion, releaseFolders } from '../../scripts/fixture-releases';
import { decompressPayload } from '../../temporal/payloads/compression-codec';

export const CARRIES_DIR = join(__dirname, '..', 'fixtures', 'carry');

/** The workflows whose runs carry state across continue-as-new. */
export type CarryingWorkflow = 'agent' | 'step' | 'thread';

const WORKFLOW_TYPES: Record<CarryingWorkflow, string> = {
  agent: 'agentWorkflow',
  step: 'stepWorkflow',
  thread: 'threadWorkflow',
};

/** How a kept carry's file name ends, by workflow. */
const SUFFIX: Record<CarryingWorkflow, string> = { agent: '.json', step: '.step.json', thread: '.thread.json' };

type Payload = temporal.api.common.v1.IPayload;

const decode = (payload: Payload): unknown => defaultPayloadConverter.fromPayload(decompressPayload(payload));

/** Which carrying workflow a history is of, if any. */
function workflowOf(history: temporal.api.history.v1.IHistory): CarryingWorkflow | undefined {
  const type = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
  return (Object.keys(WORKFLOW_TYPES) as CarryingWorkflow[]).find((w) => WORKFLOW_TYPES[w] === type);
}

/**
 * The carry a run's history ends with: the continue-as-new event's second argument (the first is
 * the input). Undefined when the run is not of `workflow` or did not roll over.
 */
export function carryOf(history: temporal.api.history.v1.IHistory, workflow: CarryingWorkflow = 'agent'): unknown {
  if (workflowOf(history) !== workflow) return undefined;
  const payload = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.input?.payloads?.[1];
  return payload ? decode(payload) : undefined;
}

/** A step run's arguments: its input, and the carry of the previous run when it continued one. */
export interface StepArgs {
  input: unknown;
  carry?: unknown;
}

/** What a step run received and handed on, decoded from its history. */
export interface StepPayloads {
  /** What it started with. */
  started: StepArgs;
  /** What it handed the next run, when it continued as new. */
  handedOn?: StepArgs;
  /** What it returned, when it completed. */
  outcome?: unknown;
}

/** The arguments of a start or continue-as-new event. */
function argsOf(payloads: Payload[] | null | undefined): StepArgs | undefined {
  const [input, carry] = payloads ?? [];
  if (!input) return undefined;
  return { input: decode(input), ...(carry ? { carry: decode(carry) } : {}) };
}

/** The arguments and outcome of a step history (undefined for any other workflow). */
export function stepPayloadsOf(history: temporal.api.history.v1.IHistory): StepPayloads | undefined {
  if (workflowOf(history) !== 'step') return undefined;
  const events = history.events ?? [];
  const started = argsOf(events[0]?.workflowExecutionStartedEventAttributes?.input?.payloads);
  if (!started) return undefined;
  const last = events.at(-1);
  const handedOn = argsOf(last?.workflowExecutionContinuedAsNewEventAttributes?.input?.payloads);
  const result = last?.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0];
  return { started, ...(handedOn ? { handedOn } : {}), ...(result ? { outcome: decode(result) } : {}) };
}

/**
 * Keeps the carry of a recorded agent, step or thread history that continued as new, in the current
 * version's folder, unless that scenario's carry is already kept in a release's folder (kept
 * fixtures are never replaced; a development version's are).
 */
export function recordCarry(name: string, history: temporal.api.history.v1.IHistory): void {
  const workflow = workflowOf(history);
  const carry = workflow && carryOf(history, workflow);
  if (workflow === undefined || carry === undefined) return;
  const dir = join(CARRIES_DIR, currentVersion());
  const file = join(dir, `${name}${SUFFIX[workflow]}`);
  mkdirSync(dir, { recursive: true });
  if (existsSync(file) && !isDevVersion(currentVersion())) return;
  writeFileSync(file, `${JSON.stringify(carry, null, 2)}\n`);
}

/** A kept carry: its release, scenario and workflow, and the JSON as written. */
export interface SavedCarry {
  release: string;
  name: string;
  workflow: CarryingWorkflow;
  carry: unknown;
}

/** Every kept carry of every release, oldest release first. */
export function savedCarries(): SavedCarry[] {
  return releaseFolders(CARRIES_DIR)
    .filter(isVersion)
    .flatMap((release) =>
      readdirSync(join(CARRIES_DIR, release))
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => {
          const workflow: CarryingWorkflow = f.endsWith(SUFFIX.step)
            ? 'step'
            : f.endsWith(SUFFIX.thread)
              ? 'thread'
              : 'agent';
          return {
            release,
            name: f.slice(0, -SUFFIX[workflow].length),
            workflow,
            carry: JSON.parse(readFileSync(join(CARRIES_DIR, release, f), 'utf8')) as unknown,
          };
        }),
    );
}
