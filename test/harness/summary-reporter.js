/**
 * Prints the run's closing line in the plain form CI reads ("tests: N passed, N failed"),
 * as the very last line of the run; and, when CAIRN_MIN_TESTS names a minimum per project
 * (`unit=750,integration=300`), fails the run if a project it names passed fewer tests or
 * produced no result at all — so a run in which a folder of tests (or a whole project) silently
 * stopped being collected cannot pass. Name only the projects the run selects: each CI step
 * (.ci/run) sets CAIRN_MIN_TESTS to the projects it runs.
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

/**
 * The projects that fall short of their minimum, one line each: a project named in `wanted` with
 * no result in `passedBy` (no test file of it ran) falls short as surely as one that passed too
 * few. A project that ran but is not named is not judged.
 */
function shortfalls(wanted, passedBy) {
  return Object.entries(wanted)
    .filter(([project, min]) => !(project in passedBy) || passedBy[project] < min)
    .map(([project, min]) =>
      project in passedBy
        ? `${project}: ${passedBy[project]} passed, at least ${min} expected`
        : `${project}: no test of it ran, at least ${min} expected`,
    );
}

/** Tests passed per project (`displayName`), from jest's aggregated results. */
function passedByProject(results) {
  const passedBy = {};
  for (const file of results.testResults) {
    const project = file.displayName?.name ?? 'default';
    passedBy[project] = (passedBy[project] ?? 0) + file.numPassingTests;
  }
  return passedBy;
}

class SummaryReporter {
  constructor() {
    this.error = undefined;
  }

  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const passedBy = passedByProject(results);
    const short = shortfalls(minimums(process.env.CAIRN_MIN_TESTS), passedBy);
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
module.exports.minimums = minimums;
module.exports.shortfalls = shortfalls;
module.exports.passedByProject = passedByProject;
