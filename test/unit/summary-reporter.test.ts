/**
 * The minimum-count gate (test/harness/summary-reporter.js, CAIRN_MIN_TESTS): which projects fall
 * short. A project the gate names must have run, not merely not have run too few.
 */
import { minimums, passedByProject, shortfalls } from '../harness/summary-reporter';

describe('CAIRN_MIN_TESTS', () => {
  it('reads <project>=<count> pairs and refuses anything else', () => {
    expect(minimums('unit=1387,integration=423')).toEqual({ unit: 1387, integration: 423 });
    expect(minimums(undefined)).toEqual({});
    expect(minimums('')).toEqual({});
    expect(() => minimums('unit')).toThrow('CAIRN_MIN_TESTS: "unit" is not <project>=<count>');
    expect(() => minimums('unit=many')).toThrow('is not <project>=<count>');
  });

  it('passes when every named project passed at least its minimum', () => {
    expect(shortfalls({ unit: 3, integration: 2 }, { unit: 3, integration: 5 })).toEqual([]);
  });

  it('fails a project that passed fewer than its minimum', () => {
    expect(shortfalls({ unit: 3, integration: 2 }, { unit: 2, integration: 5 })).toEqual([
      'unit: 2 passed, at least 3 expected',
    ]);
  });

  it('fails a named project of which no test ran: a project that collects nothing is not skipped', () => {
    // `npm test` with the integration folder collecting nothing: only unit results exist.
    expect(shortfalls({ unit: 3, integration: 2 }, { unit: 3 })).toEqual([
      'integration: no test of it ran, at least 2 expected',
    ]);
    // A project whose files ran but passed nothing is short too.
    expect(shortfalls({ integration: 1 }, { integration: 0 })).toEqual(['integration: 0 passed, at least 1 expected']);
  });

  it('does not judge a project that ran but is not named', () => {
    expect(shortfalls({ unit: 1 }, { unit: 1, e2e: 0 })).toEqual([]);
  });

  it("counts passed tests per jest project from the run's file results", () => {
    const results = {
      testResults: [
        { displayName: { name: 'unit' }, numPassingTests: 4 },
        { displayName: { name: 'unit' }, numPassingTests: 0 },
        { displayName: { name: 'integration' }, numPassingTests: 2 },
        { numPassingTests: 1 },
      ],
    };
    expect(passedByProject(results)).toEqual({ unit: 4, integration: 2, default: 1 });
    expect(shortfalls(minimums('unit=4,integration=2,scenarios=1'), passedByProject(results))).toEqual([
      'scenarios: no test of it ran, at least 1 expected',
    ]);
  });
});
