/**
 * `cairn watch` and `cairn run` print the model's words as they form
 * (docs/contracts.md#live-output), through the real bin script against a worker in this process
 * and the scripted LLM streaming like the real protocol — straight from Temporal, and over the HTTP API (CAIRN_API_URL) from the stream
 * route. Causal, no clock: the fake holds each stream's end (or its cut) until the CLI's stdout
 * shows part of its text. A call cut mid-stream prints its partial text, `[retrying…]`, then the
 * retry's text; the answer's text streams under `[answer]` before its call completes (for `run`,
 * before its outcome and answer are printed).
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { startAgent } from '../harness/agents';
import { spawnCairn, type CliRun } from '../harness/cairn-cli';
import { plan, planReply, step } from '../harness/plans';
import { withWorker } from '../harness/test-env';
import { waitUntil } from '../../testkit/wait-until';
import { gate } from '../harness/gate';
import { testApp } from '../harness/http-app';

jest.setTimeout(120_000);

const bed = agentTestbed();

const FIRST = 'FIRST DRAFT: the quarterly numbers are not in yet, so this part is a guess.';
const SECOND = 'Second try: revenue grew in every quarter and costs fell in two.';
const ANSWER = 'Revenue grew all year; costs fell in the second half.';

/** A timeline line, and a call's heading: printed on lines of their own, between pieces of text. */
const TIMELINE = /^\d\d:\d\d:\d\d /;
const HEADING = /^\[(s1|answer|planner)\]$/;

/** What the CLI printed of the model's words: its output without timeline lines and headings, lines joined. */
const wordsOf = (out: string) =>
  out
    .split('\n')
    .filter((line) => !TIMELINE.test(line) && !HEADING.test(line))
    .join('');

/** Until `text` is among the words the CLI printed (a timeout says what it printed). */
async function printed(run: CliRun, text: string): Promise<void> {
  try {
    await waitUntil(`cairn watch printed ${JSON.stringify(text)}`, () =>
      Promise.resolve(wordsOf(run.output.stdout).includes(text)),
    );
  } catch (err) {
    throw new Error(`${String(err)}\nstdout:\n${run.output.stdout}\nstderr:\n${run.output.stderr}`, { cause: err });
  }
}

/**
 * Scripts a one-step agent whose step call is cut mid-stream and retried, each stream's end held
 * until the CLI has printed part of it; runs `cairn watch` with `env` and checks what it printed.
 */
async function watchStreams(env: (agentId: string) => Record<string, string>): Promise<void> {
  const partialShown = gate();
  const retryShown = gate();
  const answerShown = gate();
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [
        reply.endAfter(reply.disconnectAfter(reply.text(FIRST), 6), partialShown.opened),
        reply.endAfter(reply.text(SECOND), retryShown.opened),
      ],
      summary: [reply.endAfter(reply.text(ANSWER), answerShown.opened)],
    }),
  );
  await withWorker(bed.config, async () => {
    const handle = await startAgent(bed.client, bed.config, { task: 'report' });
    const run = spawnCairn(['watch', handle.workflowId], {
      CAIRN_TASK_QUEUE: bed.config.taskQueue,
      ...env(handle.workflowId),
    });
    try {
      await printed(run, 'FIRST DRAFT');
      partialShown.open();
      await printed(run, 'Second try');
      // The retry's call is still open: its text was printed as it formed.
      expect(bed.llm.requestsFor('step')[1]?.answeredAt).toBeUndefined();
      retryShown.open();
      await printed(run, 'Revenue grew');
      expect(bed.llm.requestsFor('summary')[0]?.answeredAt).toBeUndefined();
      answerShown.open();
      const result = await run.done;
      expect(result.code).toBe(0);
      // The partial attempt, the marker, then the retry's whole text — once; the answer under its heading.
      expect(result.stdout).toMatch(/^\[s1\]\nFIRST DRAFT/m);
      expect(result.stdout).toMatch(/^\[answer\]\nR/m);
      const words = wordsOf(result.stdout);
      const at = (text: string) => words.indexOf(text);
      expect(at('FIRST DRAFT')).toBeGreaterThanOrEqual(0);
      expect(at('FIRST DRAFT')).toBeLessThan(at('[retrying…]'));
      expect(at('[retrying…]')).toBeLessThan(at(SECOND));
      expect(words.split(SECOND)).toHaveLength(2);
      expect(words.slice(at('[retrying…]'))).not.toContain('FIRST DRAFT');
      expect(at(SECOND)).toBeLessThan(at(ANSWER));
      // The timeline is printed too, on lines of its own.
      expect(result.stdout).toMatch(/^\d\d:\d\d:\d\d ▶ .*s1/m);
    } finally {
      run.input();
      await run.done;
    }
  });
}

test('cairn watch prints the live text straight from Temporal: the retry replaces the partial attempt', async () => {
  await watchStreams(() => ({}));
});

test('cairn watch with CAIRN_API_URL prints the live text read from the stream route', async () => {
  const app = testApp(bed.client, bed.config.taskQueue, { eventTiming: { pollMs: 100, heartbeatMs: 1_000 } });
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ server: s, port: info.port }),
    );
  });
  try {
    await watchStreams(() => ({ CAIRN_API_URL: `http://127.0.0.1:${port}` }));
  } finally {
    server.close();
    if ('closeAllConnections' in server) server.closeAllConnections();
  }
});

test('cairn run prints the answer as it forms, before its call completes, then the outcome', async () => {
  const answerShown = gate();
  bed.llm.respondWith(
    byRoute({
      plan: [planReply(plan([step('s1')]))],
      'step:s1': [reply.text(SECOND)],
      summary: [reply.endAfter(reply.text(ANSWER), answerShown.opened)],
    }),
  );
  await withWorker(bed.config, async () => {
    const run = spawnCairn(['run', 'report'], { CAIRN_TASK_QUEUE: bed.config.taskQueue });
    try {
      await printed(run, 'Revenue grew');
      expect(bed.llm.requestsFor('summary')[0]?.answeredAt).toBeUndefined();
      expect(run.output.stdout).not.toContain('completed ·');
      answerShown.open();
      const result = await run.done;
      expect(result.code).toBe(0);
      // The streamed answer under its heading, then the outcome line; the answer, shown whole
      // already, is not printed a second time.
      const streamed = result.stdout.indexOf('[answer]');
      const outcome = result.stdout.indexOf('completed ·');
      expect(streamed).toBeGreaterThanOrEqual(0);
      expect(outcome).toBeGreaterThan(streamed);
      expect(result.stdout.slice(streamed, outcome)).toContain(ANSWER);
      expect(result.stdout.split(ANSWER)).toHaveLength(2);
    } finally {
      run.input();
      await run.done;
    }
  });
});
