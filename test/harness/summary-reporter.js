/**
 * Prints the run's closing line in the plain form CI reads ("tests: N passed, N failed"),
 * as the very last line of the run; and, when CAIRN_MIN_TESTS names a minimum per project
 * (`unit=750,integration=300`), fails the run if a project selected for it passed fewer tests —
 * so a run in which a folder of tests silently stopped being collected cannot pass.
 */

/** `{ unit: 750, integration: 300 }` from `unit=750,integration=300`. */
function minimums(text) {
  const out = {};
  for (const part of (text ?? '').split(',').filter(Boolean)) {
    const [name, count] = part.split('=');
    if (!name || !/^\d+$/.test(count ?? '')) throw new Error(`CAIRN_MIN_TESTS: "${part}" is not <project>=<count>`);
    out[name.trim()] = Number(count);
  }
  return out;
}

class SummaryReporter {
  constructor() {
    this.error = undefined;
  }

  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const passedBy = {};
    for (const file of results.testResults) {
      const project = file.displayName?.name ?? 'default';
      passedBy[project] = (passedBy[project] ?? 0) + file.numPassingTests;
    }
    const short = Object.entries(minimums(process.env.CAIRN_MIN_TESTS))
      // A project this run did not select is not judged (`npm test` runs unit and integration only).
      .filter(([project]) => project in passedBy)
      .filter(([project, min]) => passedBy[project] < min)
      .map(([project, min]) => `${project}: ${passedBy[project]} passed, at least ${min} expected`);
    if (short.length > 0) this.error = new Error(`too few tests ran (CAIRN_MIN_TESTS): ${short.join('; ')}`);
    const counts = Object.entries(passedBy)
      .map(([p, n]) => `${p} ${n}`)
      .join(', ');
    const line =
      `tests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}` +
      ` (${counts})${this.error ? `\n${this.error.message}` : ''}\n`;
    // On exit, so it closes the output after jest's own summary.
    process.once('exit', () => process.stdout.write(line));
  }

  /** Jest fails the run when a reporter returns an error here. */
  getLastError() {
    return this.error;
  }
}

module.exports = SummaryReporter;
