/**
 * The carry is a contract between releases (docs/operations.md#changing-workflow-code): every
 * carry kept from a real run of an earlier release (test/fixtures/carry/<release>) is read by
 * the current code, losing nothing — state, open interactions, timeline cursor, planner
 * conversation, catalogue, step routes and resume point come out as they went in.
 */
import { savedCarries } from '../harness/carries';
import { agentCarrySchema, CARRY_VERSION, type AgentCarry } from '../../workflows/model/agent/agent-carry';
import { migrateCarry, readCarry } from '../../workflows/model/agent/carry-migration';
import { createAgentState } from '../../workflows/model/agent/agent-state';

const carries = savedCarries().filter((c) => c.workflow === 'agent');

test('the first generation (0.1.0) keeps a carry for each resume point, written without a version', () => {
  const first = carries.filter((c) => c.release === '0.1.0');
  expect(first.map((c) => c.name)).toEqual(['agent-rollover-execute', 'agent-rollover-plan-check']);
  expect(first.map((c) => (c.carry as Record<string, unknown>).resumeAt)).toEqual(['execute', 'plan-check']);
  expect(first.every((c) => !('version' in (c.carry as object)))).toBe(true);
});

test.each(carries.map((c) => [`${c.release}/${c.name}`, c.carry] as const))(
  'the carry %s is read by the current code with nothing lost',
  (_name, kept) => {
    const read = migrateCarry(kept);
    if (!read.ok) throw new Error(read.error);
    const { runs: _dropped, version: _version, ...written } = kept as Record<string, unknown>;
    expect(read.carry).toEqual({ ...written, version: CARRY_VERSION });
    // The timeline cursor goes on from where the previous run was.
    expect(read.carry.state.eventSeq).toBeGreaterThanOrEqual(read.carry.state.events.at(-1)?.seq ?? 0);
  },
);

/** A small carry of the current version. */
function currentCarry(): AgentCarry {
  return {
    version: CARRY_VERSION,
    resumeAt: 'execute',
    state: createAgentState('a task'),
    planner: [
      { role: 'system', content: 'plan' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'ask_user', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: 'yes' },
    ],
    tools: [
      {
        name: 'lookup',
        description: 'looks up',
        effect: 'read',
        idempotent: true,
        needsApproval: false,
        parameters: {},
      },
    ],
    stepRoutes: { i2: { stepId: 's1', requestId: 'r1' } },
  };
}

test('a carry of the current version reads back as written', () => {
  const carry = currentCarry();
  expect(agentCarrySchema.parse(carry)).toEqual(carry);
  expect(readCarry(JSON.parse(JSON.stringify(carry)))).toEqual(carry);
});

test('a carry of a newer version, or a broken one, is refused with the reason (the run fails its task, not the agent)', () => {
  expect(migrateCarry({ ...currentCarry(), version: CARRY_VERSION + 1 })).toEqual({
    ok: false,
    error: `carry version ${CARRY_VERSION + 1} is newer than this code's ${CARRY_VERSION}`,
  });
  /** Why a carry is refused ('' when it is read). */
  const refusal = (raw: unknown) => {
    const read = migrateCarry(raw);
    return read.ok ? '' : read.error;
  };
  const { resumeAt: _, ...noResume } = currentCarry();
  expect(refusal(noResume)).toMatch(/^carry version 2: resumeAt: /);
  // An unversioned (version 1) carry steps up, then the current schema checks the state.
  const { version: _v, ...v1 } = currentCarry();
  expect(refusal({ ...v1, state: { ...v1.state, phase: 'dreaming' } })).toMatch(/^carry version 2: state\.phase: /);
  expect(refusal({ ...v1, planner: 'not a list' })).toMatch(/^carry version 1: planner: /);
  expect(() => readCarry('not a carry')).toThrow(/^cannot read the carry of the previous run: /);
});
