/**
 * Helpers for configuration tests: the lines `loadConfig` refuses an environment with, and an
 * agents port whose every method fails, for HTTP app tests that call no agent route.
 */
import type { ThreadsPort } from '../../client/threads/threads-port';
import type { AgentsPort } from '../../client/agents/agents-port';
import { ConfigError, loadConfig } from '../../config/config';

/** The ConfigError lines for `env`; throws when the environment is accepted. */
export function errorLines(env: Record<string, string>): string[] {
  const lines = configProblems(env);
  if (lines.length === 0) throw new Error('expected a ConfigError');
  return lines;
}

/** The ConfigError lines for `env`; none when it is accepted. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.lines;
    throw err;
  }
  return [];
}

/** An agents port for apps whose test calls no agent route: every method rejects, saying so. */
export function unusedAgents(why: string): AgentsPort {
  const unused = () => Promise.reject(new Error(why));
  return {
    start: unused,
    state: unused,
    list: unused,
    answer: unused,
    cancel: unused,
    pause: unused,
    resume: unused,
    transcript: unused,
  };
}

/** A threads port for apps whose test calls no thread route: every method rejects, saying so. */
export function unusedThreads(why: string): ThreadsPort {
  const unused = () => Promise.reject(new Error(why));
  const newId = () => {
    throw new Error(why);
  };
  return { open: unused, send: unused, get: unused, message: unused, list: unused, newId };
}
