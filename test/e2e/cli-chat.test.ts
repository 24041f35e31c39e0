/**
 * `cairn chat` through the real bin script against a worker in this process and the scripted LLM,
 * stdin piped (messages one per line, and a task turn's answers as JSON lines between them):
 * a chat reply printed, then a task turn whose step's question and write approval are answered
 * inline and whose answer is printed, and nothing after `/exit` is sent; straight to Temporal, and through the HTTP API with a token.
 * `/file <path>` attaches a file to the next message: stored in the thread's folder and read by the task turn's step.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { runCairn } from '../harness/cairn-cli';
import { chatThenBrief } from '../harness/chat-then-brief';
import { finish, plan, planReply, step } from '../harness/plans';
import { cliTarget, STRAIGHT, THROUGH_API, type CliWay } from '../harness/cli-ways';
import { testConfig, withWorker } from '../harness/test-env';
import { ThreadClient } from '../../client/threads/thread-client';
import { agentFile } from '../harness/agents';
import { DEFAULT_UPLOAD_LIMITS } from '../../config/upload-config';

const bed = agentTestbed();

const STDIN =
  [
    'hi there',
    'write the brief',
    JSON.stringify({ text: 'engineers' }),
    JSON.stringify({ decision: 'approve' }),
    '/exit',
    'never sent: the conversation ended',
  ].join('\n') + '\n';

/** What both ways must show: the reply, the turn's agent and approval, the answer; two turns in the thread. */
async function expectConversation(run: { code: number | null; stdout: string; stderr: string }, workspace: string) {
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.code).toBe(0);
  const thread = /^thread (thread-\S+)$/m.exec(run.stdout)?.[1] ?? '';
  expect(thread).not.toBe('');
  const reply = run.stdout.indexOf('Hello! What shall we write?');
  const answer = run.stdout.indexOf('The brief is in brief.txt.');
  expect(reply).toBeGreaterThan(-1);
  expect(answer).toBeGreaterThan(reply);
  expect(run.stdout).toContain(`task: agent ${thread}/turn-2`);
  expect(run.stdout).toMatch(/s1 write_file → ok/);
  expect(run.stdout).toMatch(/ask\.query: Who reads the brief\?/);
  expect(bed.llm.heardBack('q1')).toContain('engineers');
  expect(run.stdout).toMatch(/completed · \d+ tokens/);
  // A thread's turns share the thread's folder.
  expect(readFileSync(agentFile(workspace, thread, 'brief.txt'), 'utf8')).toBe('for engineers');
  const view = await new ThreadClient(bed.client, bed.config.taskQueue).get(thread);
  return view;
}

test('cairn chat straight to Temporal: a chat reply, then a task turn (its question and approval answered inline) with its answer printed', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'cli-chat-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  bed.config = config;
  bed.llm.respondWith(chatThenBrief());
  await withWorker(config, async () => {
    const run = await runCairn(['chat'], { CAIRN_TASK_QUEUE: config.taskQueue, CAIRN_WORKSPACE: workspace }, STDIN);
    const view = await expectConversation(run, workspace);
    expect(view.turns.map((t) => [t.kind, t.status, t.reply])).toEqual([
      ['chat', 'completed', 'Hello! What shall we write?'],
      ['task', 'completed', 'The brief is in brief.txt.'],
    ]);
    expect(view.turns[0]?.by).toMatch(/@cli$|^cli$/);
  });
});

test('cairn chat through the HTTP API: the token principal sends and approves', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'cli-chat-api-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  bed.config = config;
  bed.llm.respondWith(chatThenBrief());
  await withWorker(config, async () => {
    const target = await cliTarget(THROUGH_API, bed.client, config.taskQueue, {});
    try {
      const run = await runCairn(['chat'], target.env, STDIN);
      const view = await expectConversation(run, workspace);
      expect(view.turns.map((t) => [t.by, t.kind, t.status])).toEqual([
        ['ann', 'chat', 'completed'],
        ['ann', 'task', 'completed'],
      ]);
    } finally {
      await target.close();
    }
  });
});

test.each<CliWay>([STRAIGHT, THROUGH_API])(
  "cairn chat /file %s: the file goes with the next message into the thread's folder and the task turn's step reads it; a missing one is said and skipped",
  async (way) => {
    const workspace = mkdtempSync(join(tmpdir(), 'cli-chat-file-'));
    const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
    bed.config = config;
    const here = mkdtempSync(join(tmpdir(), 'cli-chat-local-'));
    const notes = join(here, 'notes.txt');
    writeFileSync(notes, 'Launch on 12 March.');
    bed.llm.respondWith(
      byRoute({
        plan: [planReply(plan([step('s1')]))],
        'step:s1': [reply.toolCall('read_file', { path: 'inputs/notes.txt' }, 'read'), finish('read it')],
        summary: [reply.text('The launch is on 12 March.')],
      }),
    );
    const stdin =
      [`/file ${join(here, 'missing.txt')}`, `/file ${notes}`, 'when is the launch?', '/exit'].join('\n') + '\n';
    await withWorker(config, async () => {
      // Through the API no workspace is given: the file goes up with the message.
      const target = await cliTarget(
        way,
        bed.client,
        config.taskQueue,
        { CAIRN_TASK_QUEUE: config.taskQueue, CAIRN_WORKSPACE: workspace },
        { uploads: { root: workspace, limits: DEFAULT_UPLOAD_LIMITS } },
      );
      try {
        const run = await runCairn(['chat', '--kind', 'task'], target.env, stdin);
        expect(run.code).toBe(0);
        expect(run.stderr).toMatch(/\/file .*missing\.txt: cannot read/);
        expect(run.stdout).toContain('attached notes.txt');
        expect(run.stdout).toContain('The launch is on 12 March.');
        const thread = /^thread (thread-\S+)$/m.exec(run.stdout)?.[1] ?? '';
        expect(readFileSync(agentFile(workspace, thread, 'inputs/notes.txt'), 'utf8')).toBe('Launch on 12 March.');
        expect(bed.llm.heardBack('read')).toContain('Launch on 12 March.');
      } finally {
        await target.close();
      }
    });
  },
);

test.each<CliWay>([STRAIGHT, THROUGH_API])(
  'cairn chat %s: a turn whose model call fails for good is told as failed and the conversation goes on',
  async (way) => {
    const workspace = mkdtempSync(join(tmpdir(), 'cli-chat-fail-'));
    const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
    bed.config = config;
    bed.llm.respondWith(byRoute({ chat: [reply.error(400, 'the model refused'), reply.text('Second time lucky.')] }));
    await withWorker(config, async () => {
      const target = await cliTarget(way, bed.client, config.taskQueue, {
        CAIRN_TASK_QUEUE: config.taskQueue,
        CAIRN_WORKSPACE: workspace,
      });
      try {
        const run = await runCairn(['chat', '--kind', 'chat'], target.env, 'first\nsecond\n/exit\n');
        expect(run.code).toBe(0);
        const failed = run.stdout.indexOf('The turn failed');
        expect(failed).toBeGreaterThan(-1);
        expect(run.stdout.indexOf('Second time lucky.')).toBeGreaterThan(failed);
        const thread = /^thread (thread-\S+)$/m.exec(run.stdout)?.[1] ?? '';
        const view = await new ThreadClient(bed.client, config.taskQueue).get(thread);
        expect(view.turns.map((t) => [t.text, t.status])).toEqual([
          ['first', 'failed'],
          ['second', 'completed'],
        ]);
      } finally {
        await target.close();
      }
    });
  },
);

test("cairn chat through the HTTP API: each later message's reply is followed from after the last stream event the one before saw", async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'cli-chat-resume-'));
  const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
  bed.config = config;
  // The first reply streams slowly enough for its events to reach the terminal as it is written.
  bed.llm.respondWith(
    byRoute({ chat: [{ ...reply.text('One, two, three, four.'), chunkDelayMs: 200 }, reply.text('Five.')] }),
  );
  await withWorker(config, async () => {
    /** The Last-Event-ID of each request for a thread's stream ('' when none was sent). */
    const resumedAfter: string[] = [];
    const target = await cliTarget(THROUGH_API, bed.client, config.taskQueue, {}, {}, (request) => {
      if (/^\/api\/threads\/[^/]+\/stream$/.test(new URL(request.url).pathname))
        resumedAfter.push(request.headers.get('last-event-id') ?? '');
    });
    try {
      const run = await runCairn(['chat', '--kind', 'chat'], target.env, 'first\nsecond\n/exit\n');
      expect(run.code).toBe(0);
      expect(run.stdout.indexOf('Five.')).toBeGreaterThan(run.stdout.indexOf('One, two, three, four.'));
      expect(resumedAfter).toHaveLength(2);
      expect(resumedAfter[0]).toBe('');
      expect(resumedAfter[1]).toMatch(/^\d+$/);
    } finally {
      await target.close();
    }
  });
});
