/**
 * `cairn run`'s agent-option flags (client/agents/cli/agent-options.ts): each flag lands in its field of
 * the agent input, flags not given add nothing (the defaults apply), and a bad value is a usage
 * error naming the flag and the contract's field, before anything starts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  agentOptions,
  checkRunInput,
  parseDuration,
  type AgentOptionFlags,
} from '../../client/agents/cli/agent-options';
import { UsageError } from '../../client/cli/cli-exit';
import { runMode } from '../../client/graphs/cli/graph-option';
import { parseAgentInput } from '../../workflows/model/agent/agent-input';

/** The input `cairn run` would send for these flags (as run-command.ts builds it). */
function inputFor(flags: AgentOptionFlags & { plan?: boolean }, graph?: Record<string, unknown>) {
  const { fields, replanAfter } = agentOptions(flags, tmpdir());
  const mode = runMode(
    { plan: flags.plan ?? true, ...(replanAfter !== undefined ? { replanAfter } : {}) },
    graph !== undefined,
  );
  return checkRunInput({ task: 'Write a brief', mode, ...fields, ...(graph ? { graphName: 'g' } : {}) });
}

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error('expected a UsageError');
}

describe('cairn run agent options', () => {
  test('every flag lands in its field, and the contract reads them back', () => {
    const input = inputFor({
      model: 'gpt-x',
      temperature: '0.3',
      systemPrompt: 'Be terse.',
      tools: 'web_search, fetch_url,,',
      maxStepRounds: '12',
      maxParallel: '2',
      tokenBudget: '50000',
      costBudget: '1.5',
      deadline: '30m',
      replanAfter: 'each',
      onRoundsExhausted: 'deliver',
      onStepFailure: 'continue',
    });
    expect(input).toMatchObject({
      model: { name: 'gpt-x', temperature: 0.3 },
      systemPrompt: 'Be terse.',
      tools: ['web_search', 'fetch_url'],
      limits: {
        maxStepRounds: 12,
        maxParallelSteps: 2,
        tokenBudget: 50000,
        costBudgetUsd: 1.5,
        deadlineMs: 30 * 60 * 1000,
        onRoundsExhausted: 'deliver',
      },
      mode: { replanAfter: 'each' },
      onStepFailure: 'continue',
    });
    const parsed = parseAgentInput(input);
    expect(parsed.ok && parsed.settings.limits.maxParallelSteps).toBe(2);
  });

  test('flags not given add nothing: the defaults apply', () => {
    const input = inputFor({});
    expect(Object.keys(input).sort()).toEqual(['mode', 'task']);
    expect(input.mode).not.toHaveProperty('replanAfter');
    expect(parseAgentInput(input)).toEqual(parseAgentInput({ task: 'Write a brief' }));
  });

  test('the system prompt can come from a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-prompt-'));
    writeFileSync(join(dir, 'prompt.txt'), 'You review contracts.\n');
    expect(agentOptions({ systemPromptFile: 'prompt.txt' }, dir).fields).toEqual({
      systemPrompt: 'You review contracts.\n',
    });
    expect(usageMessage(() => agentOptions({ systemPromptFile: 'missing.txt' }, dir))).toMatch(
      /^--system-prompt-file missing\.txt: cannot read .*ENOENT/,
    );
    expect(usageMessage(() => agentOptions({ systemPrompt: 'a', systemPromptFile: 'prompt.txt' }, dir))).toMatch(
      /cannot be used together/,
    );
  });

  test('durations: units, bare milliseconds, and junk refused', () => {
    expect(parseDuration('--deadline', '2h')).toBe(2 * 3_600_000);
    expect(parseDuration('--deadline', '90s')).toBe(90_000);
    expect(parseDuration('--deadline', '1500ms')).toBe(1500);
    expect(parseDuration('--deadline', '2500')).toBe(2500);
    expect(parseDuration('--deadline', '1.5m')).toBe(90_000);
    expect(usageMessage(() => parseDuration('--deadline', 'soon'))).toMatch(/^--deadline soon: not a duration/);
  });

  test.each([
    [{ maxStepRounds: 'many' }, /^--max-step-rounds many: not a number$/],
    [{ maxStepRounds: '0' }, /^--max-step-rounds: limits\.maxStepRounds: /],
    [{ maxParallel: '2.5' }, /^--max-parallel: limits\.maxParallelSteps: /],
    [{ tokenBudget: '-5' }, /^--token-budget: limits\.tokenBudget: /],
    [{ costBudget: '0' }, /^--cost-budget: limits\.costBudgetUsd: /],
    [{ temperature: '3' }, /^--temperature: model\.temperature: /],
    [{ replanAfter: 'sometimes' }, /^--replan-after: mode\.replanAfter: /],
    [{ onRoundsExhausted: 'retry' }, /^--on-rounds-exhausted: limits\.onRoundsExhausted: /],
    [{ onStepFailure: 'ignore' }, /^--on-step-failure: onStepFailure: /],
    [{ deadline: '0' }, /^--deadline: limits\.deadlineMs: /],
  ] as [AgentOptionFlags, RegExp][])('%j is a usage error naming the flag and field', (flags, message) => {
    const text = usageMessage(() => inputFor(flags));
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
  });

  test('with a graph: limits and model are sent, --replan-after is refused', () => {
    const input = inputFor({ maxParallel: '3', model: 'm' }, {});
    expect(input).toMatchObject({ graphName: 'g', limits: { maxParallelSteps: 3 }, model: { name: 'm' } });
    expect(input.mode).toEqual({ confirmPlan: false });
    expect(usageMessage(() => inputFor({ replanAfter: 'each' }, {}))).toMatch(
      /--replan-after cannot be used with --graph/,
    );
  });
});
