/**
 * The worker's log lines: one JSON object each, naming the agent and step a line concerns,
 * with every string — message, metadata, error messages inside it — passed through the redactor.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { LogEntry } from '@temporalio/worker';
import { createRedactor } from '../../config/redact-secrets';
import { formatLogEntry, logOwner } from '../../worker/redacting-logger';

const KEY = 'sk-live-0123456789abcdef0123456789abcdef';
const redact = createRedactor([KEY]);

function entry(message: string, meta: Record<string, unknown>): LogEntry {
  return { level: 'WARN', message, meta, timestampNanos: 1_700_000_000_000_000_000n };
}

test('a step activity line is one JSON object with the agent and step ids, and no secret', () => {
  const error = ApplicationFailure.retryable(`endpoint echoed ${KEY}`, 'LLM_AUTH');
  const line = formatLogEntry(
    entry(`Activity failed with ${KEY}`, {
      workflowId: 'agent-7/step-s2',
      workflowType: 'stepWorkflow',
      activityType: 'callLlm',
      attempt: 2,
      details: { hint: `key was ${KEY}` },
      error,
    }),
    redact,
  );
  expect(line).not.toContain('\n');
  expect(line).not.toContain(KEY);
  const parsed = JSON.parse(line) as Record<string, unknown>;
  expect(parsed).toMatchObject({
    time: '2023-11-14T22:13:20.000Z',
    level: 'WARN',
    message: 'Activity failed with [redacted]',
    agentId: 'agent-7',
    stepId: 's2',
    workflowId: 'agent-7/step-s2',
    activityType: 'callLlm',
    attempt: 2,
    details: { hint: 'key was [redacted]' },
    error: { name: 'ApplicationFailure', message: 'endpoint echoed [redacted]', type: 'LLM_AUTH' },
  });
});

test('agent lines name the agent only; lines about no workflow name none', () => {
  expect(logOwner('agent-7', 'agentWorkflow')).toEqual({ agentId: 'agent-7' });
  // A nested agent's id has a step in it, but it is an agent of its own.
  expect(logOwner('agent-7/step-s1/sub-c1', 'agentWorkflow')).toEqual({ agentId: 'agent-7/step-s1/sub-c1' });
  expect(logOwner('agent-7/step-s1', undefined)).toEqual({ agentId: 'agent-7', stepId: 's1' });
  expect(logOwner('llm-check-1', 'llmCheckWorkflow')).toEqual({});
  expect(logOwner(undefined, undefined)).toEqual({});
  const line = JSON.parse(formatLogEntry(entry('Worker state changed', { state: 'RUNNING' }), redact)) as object;
  expect(line).toEqual({
    time: '2023-11-14T22:13:20.000Z',
    level: 'WARN',
    message: 'Worker state changed',
    state: 'RUNNING',
  });
});
