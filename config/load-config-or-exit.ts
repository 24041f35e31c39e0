/**
 * Entry points (worker, server, CLI) read configuration through this: a bad environment
 * prints one line per bad variable and exits with status 2, with no stack trace.
 */
import { ConfigError, loadConfig, type CairnConfig } from './config';

/** Loads the configuration from `process.env`, or exits the process explaining why not. */
export function loadConfigOrExit(): CairnConfig {
  try {
    return loadConfig(process.env, process.cwd());
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\nSee the configuration table in docs/configuration.md.\n`);
    process.exit(2);
  }
}
