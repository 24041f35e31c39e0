/**
 * The thread carry is a contract between releases, like the agent's: every kept thread carry
 * (test/fixtures/carry/<release>/<scenario>.thread.json) and every carry a kept thread history
 * handed on is read by the current code with nothing lost — a version-1 carry (every turn, no
 * title or summary) steps up to the current version as it was; a carry of a newer version, or a
 * broken one, is refused (the thread then waits for code that can read it).
 */
import { carryOf, savedCarries } from '../harness/carries';
import { savedHistories } from '../harness/histories';
import { currentVersion } from '../../scripts/fixture-releases';
import { migrateThreadCarry, readThreadCarry, THREAD_CARRY_VERSION } from '../../workflows/thread/thread-carry';

const kept = savedCarries().filter((c) => c.workflow === 'thread');
const handedOn = savedHistories().flatMap((h) => {
  const carry = carryOf(h.history, 'thread');
  return carry === undefined ? [] : [{ label: `${h.release}/${h.name}`, carry }];
});

test('the current release keeps a thread carry, the one its kept thread history handed on', () => {
  const current = kept.filter((c) => c.release === currentVersion());
  expect(current.length).toBeGreaterThan(0);
  for (const carry of current)
    expect(handedOn.find((h) => h.label === `${carry.release}/${carry.name}`)?.carry).toEqual(carry.carry);
});

test.each(kept.map((c) => [`${c.release}/${c.name}`, c.carry] as const))(
  'kept thread carry %s reads as the current version, nothing lost',
  (_label, carry) => {
    const read = migrateThreadCarry(carry);
    expect(read).toEqual({ ok: true, carry: { ...(carry as object), version: THREAD_CARRY_VERSION } });
    expect(readThreadCarry(carry).version).toBe(THREAD_CARRY_VERSION);
  },
);

test.each(handedOn.map((h) => [h.label, h.carry] as const))(
  'the carry kept history %s handed on reads as written',
  (_label, carry) => {
    expect(migrateThreadCarry(carry)).toEqual({
      ok: true,
      carry: { ...(carry as object), version: THREAD_CARRY_VERSION },
    });
  },
);

test('no release shipped a thread carry: the kept ones are of the current version, with what is new in it', () => {
  const versions = new Set(kept.map((c) => (c.carry as { version?: number }).version));
  expect([...versions]).toEqual([THREAD_CARRY_VERSION]);
  // The current version's fixture holds what is new in it: a title and a summary of folded turns.
  expect(kept.some((c) => readThreadCarry(c.carry).summary !== undefined)).toBe(true);
  expect(kept.every((c) => readThreadCarry(c.carry).title !== undefined)).toBe(true);
});

test('a carry of a newer version, or a broken one, is refused', () => {
  expect(migrateThreadCarry({ version: THREAD_CARRY_VERSION + 1, turns: [], nextMessage: 1 })).toEqual({
    ok: false,
    error: `thread carry version ${THREAD_CARRY_VERSION + 1} is newer than this code's ${THREAD_CARRY_VERSION}`,
  });
  const broken = migrateThreadCarry({ version: THREAD_CARRY_VERSION, turns: [{ text: 'no id' }], nextMessage: 1 });
  expect(broken.ok).toBe(false);
  expect(() => readThreadCarry({ version: THREAD_CARRY_VERSION, turns: 'no', nextMessage: 0 })).toThrow(
    /cannot read the carry of the previous run/,
  );
});
