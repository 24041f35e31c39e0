/**
 * `cairn run --graph <file|name>`: a path ending in `.json` is read and checked here (shape and
 * rules, every problem with its code), so a broken file is a usage error before anything starts;
 * anything else is a registered graph's name, sent as `graphName` for the client library (or the
 * server, through CAIRN_API_URL) to resolve at start. With a graph the CLI sends no planning mode:
 * a graph agent refuses them.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AgentInput } from '../../../workflows/model/agent/agent-input';
import { checkGraph, issueText } from '../check-graph';
import { UsageError } from '../../cli/cli-exit';

/** What `--graph` adds to the agent input. */
export type GraphChoice = Pick<AgentInput, 'graph' | 'graphName'>;

/** Whether `--graph` names a file (ends in `.json`) rather than a registered graph. */
export function isGraphFile(value: string): boolean {
  return /\.json$/i.test(value.trim());
}

/**
 * The input's graph for `--graph <value>`: from the JSON file (relative to `cwd`), checked, or the
 * name to resolve at start.
 * @throws UsageError when the file cannot be read, is not JSON, or holds a broken graph.
 */
export async function graphChoice(value: string, cwd: string): Promise<GraphChoice> {
  if (!isGraphFile(value)) return { graphName: value.trim() };
  const file = resolve(cwd, value.trim());
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `--graph ${value}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (err) {
    throw new UsageError(`--graph ${value}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const checked = checkGraph(json);
  if (!checked.ok) {
    throw new UsageError(
      `--graph ${value}: the graph is invalid:\n${issueText(checked.issues)
        .map((l) => `  ${l}`)
        .join('\n')}`,
    );
  }
  return { graph: checked.graph };
}

/** The run options that decide the input's mode. */
export interface ModeOptions {
  plan: boolean;
  ask?: boolean;
  confirmPlan?: boolean;
  /** `--replan-after`, checked with the rest of the input. */
  replanAfter?: string;
}

/**
 * The input's `mode` for `cairn run`: without a graph every planning mode as the options say;
 * with one only `confirmPlan` (the graph's check), and `--no-plan`, `--ask` or `--replan-after` refused.
 * The mode is checked with the rest of the input (agent-options.ts `checkRunInput`).
 * @throws UsageError for a planning option given with `--graph`.
 */
export function runMode(options: ModeOptions, withGraph: boolean): Record<string, unknown> {
  if (!withGraph)
    return {
      plan: options.plan,
      ask: options.ask ?? false,
      confirmPlan: options.confirmPlan ?? false,
      ...(options.replanAfter !== undefined ? { replanAfter: options.replanAfter } : {}),
    };
  const refused = [
    ...(options.plan ? [] : ['--no-plan']),
    ...(options.ask ? ['--ask'] : []),
    ...(options.replanAfter !== undefined ? ['--replan-after'] : []),
  ];
  if (refused.length > 0) {
    throw new UsageError(`${refused.join(' and ')} cannot be used with --graph: the graph's nodes decide what runs`);
  }
  return { confirmPlan: options.confirmPlan ?? false };
}
