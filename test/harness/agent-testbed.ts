/**
 * The per-file setup of agent integration tests: one client for the file, and per test a
 * fresh scripted LLM and a configuration on its own task queue pointing at it. The fake is
 * closed after each test, which fails the test if any request went unscripted; before that, the
 * test fails if an approval it opened lacks the `why` the model's text gave it (approval-reasons.ts).
 */
import type { Client } from '@temporalio/client';
import type { CairnConfig } from '../../config/config';
import { ScriptedLlm } from '../fake-llm/scripted-llm';
import { closeClient, connectClient, testConfig } from './test-env';
import { approvalReasonProblems } from './approval-reasons';

export interface AgentTestbed {
  client: Client;
  llm: ScriptedLlm;
  config: CairnConfig;
}

/** Registers the hooks and returns the (per-test refreshed) testbed. */
export function agentTestbed(env: Record<string, string> = {}): AgentTestbed {
  const bed = {} as AgentTestbed;
  beforeAll(async () => {
    bed.client = await connectClient();
  });
  afterAll(async () => {
    await closeClient(bed.client);
  });
  beforeEach(async () => {
    bed.llm = await ScriptedLlm.start();
    bed.config = testConfig(bed.llm, env);
  });
  afterEach(async () => {
    try {
      // Every approval a test opened says why, when the model wrote text before the call.
      const { problems } = await approvalReasonProblems(bed.client, bed.llm);
      if (problems.length > 0) throw new Error(`approvals without their why:\n${problems.join('\n')}`);
    } finally {
      await bed.llm.close();
    }
  });
  return bed;
}
