/**
 * The agent options of `cairn run` (model, system prompt, tools, limits, modes): each flag's text
 * turned into its field of the agent input, then the whole input checked with the contract's own
 * parser, so a bad value is a usage error naming the flag and the field before anything starts.
 */
import type { AgentStart } from '../../definitions/resolve-definition';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseAgentInput, type AgentInput } from '../../../workflows/model/agent/agent-input';
import { UsageError } from '../../cli/cli-exit';

/** The agent-option flags as commander parses them: every value still text. */
export interface AgentOptionFlags {
  model?: string;
  temperature?: string;
  systemPrompt?: string;
  systemPromptFile?: string;
  tools?: string;
  maxStepRounds?: string;
  maxParallel?: string;
  tokenBudget?: string;
  costBudget?: string;
  deadline?: string;
  replanAfter?: string;
  onRoundsExhausted?: string;
  onStepFailure?: string;
}

/**
 * What the flags add to the input (`mode.replanAfter` is returned apart: it joins the mode), not
 * yet checked: `checkRunInput` does that on the whole input.
 */
export type AgentOptionFields = Record<string, unknown>;

/** Which flag sets which input field, so an error from the contract names what was typed. */
const FLAG_OF_FIELD: Record<string, string> = {
  'model.name': '--model',
  'model.temperature': '--temperature',
  systemPrompt: '--system-prompt',
  tools: '--tools',
  'limits.maxStepRounds': '--max-step-rounds',
  'limits.maxParallelSteps': '--max-parallel',
  'limits.tokenBudget': '--token-budget',
  'limits.costBudgetUsd': '--cost-budget',
  'limits.deadlineMs': '--deadline',
  'mode.replanAfter': '--replan-after',
  'limits.onRoundsExhausted': '--on-rounds-exhausted',
  onStepFailure: '--on-step-failure',
};

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration such as `30m`, `2h`, `90s`, `1500ms`, or a bare number of milliseconds.
 * @throws UsageError for anything else.
 */
export function parseDuration(flag: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new UsageError(`${flag} ${text}: not a duration (e.g. 30m, 2h, 90s or milliseconds)`);
  return Math.round(Number(match[1]) * (DURATION_UNITS_MS[match[2] ?? 'ms'] ?? 1));
}

/** A number flag's value; range and integer checks are the contract's. */
function parseNumber(flag: string, text: string): number {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value)) throw new UsageError(`${flag} ${text}: not a number`);
  return value;
}

/** `a, b,,c` → `['a', 'b', 'c']`. */
function parseList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Drops the keys whose value is undefined: an option not given is not sent (defaults apply). */
function defined<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function systemPromptOf(flags: AgentOptionFlags, cwd: string): string | undefined {
  if (flags.systemPrompt !== undefined && flags.systemPromptFile !== undefined)
    throw new UsageError('--system-prompt and --system-prompt-file cannot be used together');
  if (flags.systemPromptFile === undefined) return flags.systemPrompt;
  const file = resolve(cwd, flags.systemPromptFile);
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `--system-prompt-file ${flags.systemPromptFile}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
}

/**
 * The input fields the flags set, and `replanAfter` for the mode; flags not given add nothing.
 * @throws UsageError for a value that is not a number, duration or readable file.
 */
export function agentOptions(
  flags: AgentOptionFlags,
  cwd: string,
): { fields: AgentOptionFields; replanAfter?: string } {
  const num = (flag: string, text: string | undefined) => (text === undefined ? undefined : parseNumber(flag, text));
  const model = defined({ name: flags.model, temperature: num('--temperature', flags.temperature) });
  const limits = defined({
    maxStepRounds: num('--max-step-rounds', flags.maxStepRounds),
    maxParallelSteps: num('--max-parallel', flags.maxParallel),
    tokenBudget: num('--token-budget', flags.tokenBudget),
    costBudgetUsd: num('--cost-budget', flags.costBudget),
    deadlineMs: flags.deadline === undefined ? undefined : parseDuration('--deadline', flags.deadline),
    onRoundsExhausted: flags.onRoundsExhausted,
  });
  const fields = defined({
    model: Object.keys(model).length > 0 ? model : undefined,
    systemPrompt: systemPromptOf(flags, cwd),
    tools: flags.tools === undefined ? undefined : parseList(flags.tools),
    limits: Object.keys(limits).length > 0 ? limits : undefined,
    onStepFailure: flags.onStepFailure,
  });
  return { fields, ...(flags.replanAfter !== undefined ? { replanAfter: flags.replanAfter } : {}) };
}

/**
 * Checks an input the CLI is about to send with the contract's parser and returns it as sent (not
 * with defaults filled in: a graph agent refuses the planning modes they would add). A graph or
 * an agent definition still to be resolved by name is left out of the check: its resolution
 * (and what the definition lets a start change) is checked at start.
 * @throws UsageError naming the flag and field of the first problem.
 */
export function checkRunInput(input: Record<string, unknown>): AgentStart {
  const { graphName, definition, ...rest } = input;
  const checked = parseAgentInput(rest);
  // Checked by the schema just now (the names by the client that resolves them).
  if (checked.ok) {
    const sent = { ...(rest as AgentInput), ...(typeof graphName === 'string' ? { graphName } : {}) };
    return typeof definition === 'string' ? { ...sent, definition } : sent;
  }
  const flag = FLAG_OF_FIELD[checked.field];
  const first = checked.errors[0] ?? checked.field;
  throw new UsageError(flag === undefined ? `invalid input: ${first}` : `${flag}: ${first}`);
}
