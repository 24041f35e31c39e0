/**
 * Prints the run's closing line in the plain form CI reads ("tests: N passed, N failed"),
 * as the very last line of the run.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `tests: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
    // On exit, so it closes the output after jest's own summary.
    process.once('exit', () => process.stdout.write(line));
  }
}

module.exports = SummaryReporter;
