/**
 * The final answer under both its names: the HTTP API's state keeps `result` and gets `answer`
 * beside it (the name `cairn run --json` and the workflow's result use), on the full read and on
 * a poll with afterSeq; a state without an answer gets neither. (`cairn run --json` getting
 * `result`: test/e2e/cli-terminal-escapes.test.ts.)
 */
import type { AgentsPort } from '../../client/agents/agents-port';
import type { AgentState } from '../../workflows/model/agent/agent-state';
import { appOver } from '../harness/http-app';

const states: Record<string, Partial<AgentState>> = {
  done: { phase: 'completed', result: 'The brief is in brief.txt.', events: [] },
  running: { phase: 'executing', events: [] },
};
const agents = {
  state: (id: string) => Promise.resolve(states[id]),
  version: () => Promise.resolve(undefined),
} as unknown as AgentsPort;
const app = appOver(agents);

const read = async (path: string) => (await (await app.request(path)).json()) as Record<string, unknown>;

test('GET /api/agents/:id: `answer` beside `result`', async () => {
  for (const path of ['/api/agents/done', '/api/agents/done?afterSeq=0']) {
    const body = await read(path);
    expect(body.result).toBe('The brief is in brief.txt.');
    expect(body.answer).toBe(body.result);
  }
  const running = await read('/api/agents/running');
  expect('answer' in running || 'result' in running).toBe(false);
});
