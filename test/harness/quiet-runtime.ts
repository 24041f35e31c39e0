/**
 * Jest setup file: installs the Temporal runtime with a WARN-level logger so worker start and
 * stop chatter does not bury test output. Runs before any test creates a connection, as
 * `Runtime.install` requires; jest may load it more than once per process, hence the guard.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';

try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // Already installed in this process by an earlier test file: the same settings apply.
}
