/**
 * A step's input and carry are contracts between releases (docs/operations.md#the-carry-is-a-versioned-contract):
 * an agent on one release starts a step that a worker of a later release runs, and a step run
 * continues as new onto later code. Every step input and carry a kept history of any release
 * holds — the input each run started with and handed on, the carry it started from and handed
 * on (test/harness/carries.ts) — and every kept step carry (test/fixtures/carry/<release>/
 * <scenario>.step.json) is read by the current code with nothing lost.
 */
import { savedCarries, stepPayloadsOf } from '../harness/carries';
import { savedHistories } from '../harness/histories';
import { currentVersion } from '../../scripts/fixture-releases';
import { migrateStepCarry, migrateStepInput, readStepCarry, readStepInput } from '../../workflows/step/step-migration';
import {
  STEP_CARRY_VERSION,
  STEP_INPUT_VERSION,
  stepOutcomeSchema,
  type StepCarry,
  type StepInput,
} from '../../workflows/step/step-types';

const steps = savedHistories().flatMap((h) => {
  const payloads = stepPayloadsOf(h.history);
  if (!payloads) return [];
  const args = [payloads.started, ...(payloads.handedOn ? [payloads.handedOn] : [])];
  return [
    {
      label: `${h.release}/${h.name}`,
      release: h.release,
      name: h.name,
      ...payloads,
      inputs: args.map((a) => a.input),
      carries: args.flatMap((a) => (a.carry === undefined ? [] : [a.carry])),
    },
  ];
});

const keptCarries = savedCarries().filter((c) => c.workflow === 'step');

/** What a carry of an unversioned release read as the current version must be: as written, named. */
function asCurrentCarry(written: unknown): unknown {
  // `runs` (0.1.0) counted runs and nothing read it.
  const { runs: _dropped, version: _version, ...rest } = written as Record<string, unknown>;
  return { ...rest, version: STEP_CARRY_VERSION };
}

test('every release kept step histories, and one of each release started from a carry and handed one on', () => {
  const releases = [...new Set(steps.map((s) => s.release))];
  expect(releases).toEqual(expect.arrayContaining(['0.1.0', '0.2.0', '0.3.0']));
  const rolled = (release: string) =>
    steps.some((s) => s.release === release && s.started.carry !== undefined && s.handedOn?.carry !== undefined);
  expect(releases.map((r) => [r, rolled(r)])).toEqual(releases.map((r) => [r, true]));
});

test('the current release keeps the carry of each of its step histories that continued as new, as handed on', () => {
  const handedOn = steps.filter((s) => s.release === currentVersion() && s.handedOn?.carry !== undefined);
  expect(handedOn.length).toBeGreaterThan(0);
  const kept = keptCarries.filter((c) => c.release === currentVersion());
  expect(kept.map((c) => c.name).sort()).toEqual(handedOn.map((s) => s.name).sort());
  for (const carry of kept) {
    expect(carry.carry).toEqual(steps.find((s) => s.label === `${carry.release}/${carry.name}`)?.handedOn?.carry);
  }
});

describe.each(steps.map((s) => [s.label, s] as const))(
  'the step history %s',
  (_label, { inputs, carries, outcome }) => {
    test('its inputs are read by the current code with nothing lost', () => {
      expect(inputs.length).toBeGreaterThan(0);
      for (const written of inputs) {
        const read = migrateStepInput(written);
        if (!read.ok) throw new Error(read.error);
        const { version: _version, ...rest } = written as Record<string, unknown>;
        expect(read.value).toEqual({ ...rest, version: STEP_INPUT_VERSION });
      }
    });

    test('its carries are read by the current code with nothing lost', () => {
      for (const written of carries) {
        const read = migrateStepCarry(written);
        if (!read.ok) throw new Error(read.error);
        expect(read.value).toEqual(asCurrentCarry(written));
      }
    });

    test('its outcome, if it completed, parses with the outcome schema with nothing lost', () => {
      if (outcome === undefined) return;
      expect(stepOutcomeSchema.parse(outcome)).toEqual(outcome);
    });
  },
);

test.each(keptCarries.map((c) => [`${c.release}/${c.name}`, c.carry] as const))(
  'the kept step carry %s is read by the current code with nothing lost',
  (_name, written) => {
    expect(readStepCarry(written)).toEqual(asCurrentCarry(written));
  },
);

/** A small step input and carry of the current versions. */
function current(): { input: StepInput; carry: StepCarry } {
  return {
    input: {
      version: STEP_INPUT_VERSION,
      agentId: 'agent-1',
      task: 'a task',
      step: { id: 's1', title: 'Step s1', description: 'Do s1', depends_on: [] },
      dependencies: [],
      tools: [],
      maxStepRounds: 3,
      canAsk: true,
    },
    carry: { version: STEP_CARRY_VERSION, rounds: 2, conversation: [{ role: 'user', content: 'go' }] },
  };
}

test('an input and a carry of the current version read back as written', () => {
  const { input, carry } = current();
  expect(readStepInput(JSON.parse(JSON.stringify(input)))).toEqual(input);
  expect(readStepCarry(JSON.parse(JSON.stringify(carry)))).toEqual(carry);
});

test('a newer version, or a broken input or carry, is refused with the reason (the run fails its task, not the step)', () => {
  const { input, carry } = current();
  expect(migrateStepInput({ ...input, version: STEP_INPUT_VERSION + 1 })).toEqual({
    ok: false,
    error: `step input version ${STEP_INPUT_VERSION + 1} is newer than this code's ${STEP_INPUT_VERSION}`,
  });
  expect(migrateStepCarry({ ...carry, version: STEP_CARRY_VERSION + 1 })).toEqual({
    ok: false,
    error: `step carry version ${STEP_CARRY_VERSION + 1} is newer than this code's ${STEP_CARRY_VERSION}`,
  });
  const { version: _v, ...unversioned } = carry;
  expect(migrateStepCarry({ ...unversioned, rounds: -1 })).toMatchObject({
    ok: false,
    error: /^step carry version 1: rounds: /,
  });
  expect(migrateStepInput({ ...input, canAsk: 'yes' })).toMatchObject({
    ok: false,
    error: /^step input version 1: canAsk: /,
  });
  expect(() => readStepInput('not an input')).toThrow(/^cannot read the step's input: step input version: /);
  expect(() => readStepCarry([])).toThrow(/^cannot read the carry of the step's previous run: /);
});
