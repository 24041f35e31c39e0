/**
 * The chaos verdict: a scenario passes only when its invariants held AND its disruptions
 * demonstrably hit the work — kills that landed inside write calls, read from the chaos tool's
 * journal. A toothless run (every kill while no call was open) is INCONCLUSIVE, not PASS.
 */
import { killsInWrites, journalFigures, openCalls, parseJournal } from '../../chaos/journal';
import { scenarioLines, summaryTable, type ScenarioResult } from '../../chaos/report';
import { runVerdict, unmetEvidence, verdictOf, type Evidence } from '../../chaos/verdict';

const met: Evidence = { what: 'kills that landed inside a chaos_append call', found: 2, needed: 1 };
const short: Evidence = { what: 'interrupted writes a retry found', found: 0, needed: 1 };

describe('verdictOf', () => {
  test('PASS: no failures and every piece of evidence reached', () => {
    expect(verdictOf({ failures: [], evidence: [met] })).toBe('PASS');
  });

  test('INCONCLUSIVE: invariants held but the evidence fell short, or none was declared', () => {
    expect(verdictOf({ failures: [], evidence: [met, short] })).toBe('INCONCLUSIVE');
    expect(verdictOf({ failures: [], evidence: [] })).toBe('INCONCLUSIVE');
    expect(unmetEvidence([met, short])).toEqual([short]);
  });

  test('FAIL: a broken invariant outranks any evidence', () => {
    expect(verdictOf({ failures: ['line "a s1 r1" written 2 times'], evidence: [met] })).toBe('FAIL');
    expect(verdictOf({ failures: ['workflow task failed: x'], evidence: [short] })).toBe('FAIL');
  });

  test('the run passes only when every scenario passed; FAIL outranks INCONCLUSIVE', () => {
    expect(runVerdict(['PASS', 'PASS'])).toBe('PASS');
    expect(runVerdict(['PASS', 'INCONCLUSIVE'])).toBe('INCONCLUSIVE');
    expect(runVerdict(['INCONCLUSIVE', 'FAIL', 'PASS'])).toBe('FAIL');
  });
});

// Worker w1 was killed with a call open (k2); w2 was killed idle; w3 retried k2 and found the write.
const JOURNAL = [
  'call a/s1/k1 w1',
  'return a/s1/k1 w1',
  'call a/s1/k2 w1',
  'call a/s2/k3 w1',
  'return a/s2/k3 w1',
  'call a/s1/k2 w3',
  'interrupted-after-write a/s1/k2',
  'return a/s1/k2 w3',
  'call a/s3/k4 w3',
  'call a/s3/k5 w3',
  'return a/s3', // a line cut short by a kill: it has a key but no worker, and is no return of w3's calls
  'ret', // cut shorter still: dropped
].join('\n');

describe('the journal', () => {
  const entries = parseJournal(JOURNAL);

  test('a call with no return on a worker is open; a kill of that worker landed in a write', () => {
    expect(openCalls(entries, 'w1')).toEqual(['a/s1/k2']);
    expect(openCalls(entries, 'w2')).toEqual([]);
    expect(killsInWrites(entries, ['w1', 'w2'])).toBe(1);
    expect(killsInWrites(entries, ['w2'])).toBe(0);
  });

  test('retries and interrupted writes are counted per idempotency key', () => {
    expect(journalFigures(entries)).toEqual({ retriedCalls: 1, interruptedAfterWrite: 1, interruptedBeforeWrite: 0 });
  });
});

const result = (over: Partial<ScenarioResult>): ScenarioResult => ({
  name: 'worker-kills',
  runs: 20,
  completed: 20,
  kills: 4,
  killsInWrites: 0,
  restarts: 4,
  writes: 180,
  duplicates: 0,
  missing: 0,
  failures: [],
  evidence: [],
  notes: [],
  wallMs: 1000,
  ...over,
});

describe('the report', () => {
  test('a toothless scenario (no kill inside a write, nothing retried) prints INCONCLUSIVE and its short evidence', () => {
    const entries = parseJournal(['call a/s1/k1 w1', 'return a/s1/k1 w1'].join('\n'));
    const found = killsInWrites(entries, ['w1']);
    const evidence = [
      { what: 'kills that landed inside a chaos_append call', found, needed: 1 },
      { what: 'chaos_append calls retried', found: journalFigures(entries).retriedCalls, needed: 1 },
    ];
    const lines = scenarioLines(result({ killsInWrites: found, evidence }));
    expect(lines[0]).toMatch(/^INCONCLUSIVE worker-kills: .*4 kills \(0 landed inside a write call\)/);
    expect(lines).toContain('    evidence: SHORT: 0 kills that landed inside a chaos_append call (needed ≥ 1)');
    expect(lines).toContain('    evidence: SHORT: 0 chaos_append calls retried (needed ≥ 1)');
  });

  test('a scenario whose kills landed prints PASS with the count, and the table totals the verdicts', () => {
    const passed = result({ killsInWrites: 3, evidence: [{ ...met, found: 3 }] });
    expect(scenarioLines(passed)[0]).toMatch(/^PASS worker-kills: .*4 kills \(3 landed inside a write call\)/);
    const table = summaryTable([passed, result({ name: 'two-workers', evidence: [short] })], 2000);
    expect(table).toMatch(/worker-kills\s+PASS\s+20\s+20\s+4\s+3\s/);
    expect(table).toMatch(/two-workers\s+INCONCLUSIVE\s/);
    expect(table).toMatch(/total\s+INCONCLUSIVE\s+40\s+40\s+8\s+3\s/);
  });
});
