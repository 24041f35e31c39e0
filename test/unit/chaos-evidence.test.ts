/**
 * What a chaos or cluster scenario must show for a pass: evidence declared (none, or evidence
 * that needs nothing, is INCONCLUSIVE), work in flight across an outage read from history, the
 * history service's failed updates read from its log, and the toothless check's judgement.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Long from 'long';
import { inFlightAcross } from '../../chaos/in-flight';
import type { Histories, HistoryEvent } from '../../chaos/outcomes';
import { scenarioLines, type ScenarioResult } from '../../chaos/report';
import { evidenceLine, SCENARIO_CRASHED, verdictOf } from '../../chaos/verdict';
import { toothlessProblems, type VerdictFile } from '../../chaos/verdict-file';
import { failedUpdates } from '../../cluster/fault-evidence';

describe('declared evidence', () => {
  test('no evidence at all is INCONCLUSIVE, and the report says none was declared', () => {
    expect(verdictOf({ failures: [], evidence: [] })).toBe('INCONCLUSIVE');
    const result: ScenarioResult = {
      name: 'quiet',
      runs: 1,
      completed: 1,
      kills: 0,
      killsInWrites: 0,
      restarts: 0,
      writes: 9,
      duplicates: 0,
      missing: 0,
      failures: [],
      evidence: [],
      notes: [],
      wallMs: 1,
    };
    const lines = scenarioLines(result);
    expect(lines[0]).toMatch(/^INCONCLUSIVE quiet:/);
    expect(lines[1]).toMatch(/evidence: NONE DECLARED/);
  });

  test('evidence that needs nothing proves nothing: INCONCLUSIVE, printed as SHORT', () => {
    const free = { what: 'restarts that struck mid-run', found: 0, needed: 0 };
    expect(verdictOf({ failures: [], evidence: [free] })).toBe('INCONCLUSIVE');
    expect(evidenceLine(free)).toBe('SHORT: 0 restarts that struck mid-run (needed ≥ 0)');
  });
});

const at = (ms: number) => ({ seconds: Long.fromNumber(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 });
const id = (n: number) => Long.fromNumber(n);

/** An activity scheduled at `from` and completed at `to`, then a workflow task the same, as history events. */
function activityAndTask(from: number, to: number): HistoryEvent[] {
  return [
    {
      eventId: id(5),
      eventTime: at(from),
      activityTaskScheduledEventAttributes: { activityType: { name: 'callLlm' } },
    },
    { eventId: id(6), eventTime: at(to), activityTaskCompletedEventAttributes: { scheduledEventId: id(5) } },
    { eventId: id(7), eventTime: at(from), workflowTaskScheduledEventAttributes: {} },
    { eventId: id(8), eventTime: at(to), workflowTaskCompletedEventAttributes: { scheduledEventId: id(7) } },
  ];
}

describe('work in flight across an outage', () => {
  const outage = { from: 10_000, to: 20_000 };
  const histories: Histories = {
    events: new Map([
      ['across', activityAndTask(9_000, 21_000)],
      ['closed-during', activityAndTask(9_000, 15_000)],
      ['scheduled-during', activityAndTask(12_000, 21_000)],
      ['after', activityAndTask(21_000, 22_000)],
    ]),
    unread: [],
  };

  test('counts only tasks scheduled before the part was gone and closed after it was back', () => {
    expect(inFlightAcross(histories, outage)).toEqual({
      activities: ['across callLlm (event 5)'],
      workflowTasks: ['across workflow task (event 7)'],
    });
  });

  test('counts only the workflows asked about', () => {
    expect(inFlightAcross(histories, outage, new Set(['after']))).toEqual({ activities: [], workflowTasks: [] });
  });
});

describe("the history service's failed updates", () => {
  test('are read from the offset on, for the batch workflows only', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cairn-log-')), 'history.log');
    const line = (id: string) =>
      `{"level":"error","msg":"Update workflow execution operation failed.","shard-id":1,"wf-id":"${id}","error":"no usable database connection found"}`;
    const before = `${line('b-00')}\n`;
    writeFileSync(
      file,
      before +
        [line('b-00/step-s1'), line('other-00'), '{"level":"error","msg":"Persistent fetch operation Failure"}'].join(
          '\n',
        ),
    );
    expect(failedUpdates(file, Buffer.byteLength(before), new Set(['b-00', 'b-00/step-s1']))).toEqual(['b-00/step-s1']);
  });
});

describe('the toothless check', () => {
  const scenario = (name: string, verdict: 'PASS' | 'FAIL' | 'INCONCLUSIVE') => ({
    name,
    verdict,
    failures: [],
    evidence: [{ what: 'kills inside a write call', found: 0, needed: 1 }],
  });
  const file = (...scenarios: VerdictFile['scenarios']): VerdictFile => ({
    toothless: true,
    verdict: 'INCONCLUSIVE',
    scenarios,
  });

  test('passes when chaos exited non-zero and no scenario passed', () => {
    expect(toothlessProblems(1, file(scenario('a', 'INCONCLUSIVE'), scenario('b', 'FAIL')))).toEqual([]);
  });

  test('fails on exit 0, on any scenario that passed, on no verdicts and on no scenario', () => {
    expect(toothlessProblems(0, file(scenario('a', 'INCONCLUSIVE')))).toHaveLength(1);
    expect(toothlessProblems(1, file(scenario('a', 'PASS'), scenario('b', 'INCONCLUSIVE')))[0]).toMatch(
      /^a PASSED toothless/,
    );
    expect(toothlessProblems(1, undefined)[0]).toMatch(/wrote no verdicts/);
    expect(toothlessProblems(1, file())).toEqual(['no scenario ran']);
    expect(toothlessProblems(1, { ...file(scenario('a', 'FAIL')), toothless: false })).toHaveLength(1);
  });

  test('a FAIL counts only when it is for lack of evidence: a crash, or a FAIL with its evidence met, is a problem', () => {
    const crashed = {
      name: 'worker-kills',
      verdict: 'FAIL' as const,
      failures: [`${SCENARIO_CRASHED}Error: connect ECONNREFUSED 127.0.0.1:7233\n    at …`],
      evidence: [],
    };
    expect(toothlessProblems(1, file(scenario('a', 'INCONCLUSIVE'), crashed))).toEqual([
      'worker-kills crashed, which is not a verdict: the scenario crashed: Error: connect ECONNREFUSED 127.0.0.1:7233',
    ]);
    // Crashed after declaring short evidence: still a crash.
    expect(toothlessProblems(1, file({ ...crashed, evidence: scenario('x', 'FAIL').evidence }))).toHaveLength(1);
    const metButFailed = {
      name: 'two-workers',
      verdict: 'FAIL' as const,
      failures: ['line "a s1 r1" written 2 times'],
      evidence: [{ what: 'kills inside a write call', found: 1, needed: 1 }],
    };
    expect(toothlessProblems(1, file(metButFailed))).toEqual([
      'two-workers FAILED toothless with no evidence short, so not for lack of it: line "a s1 r1" written 2 times',
    ]);
    expect(toothlessProblems(1, file({ ...metButFailed, evidence: [] }))).toHaveLength(1);
    // Its evidence short: a FAIL for lack of it, as the toothless run must give.
    const short = { ...metButFailed, evidence: [{ what: 'kills inside a write call', found: 0, needed: 1 }] };
    expect(toothlessProblems(1, file(short, scenario('b', 'INCONCLUSIVE')))).toEqual([]);
  });
});
