/**
 * Finding 12: the CLI printed model-written text raw, so a plan, a tool's arguments or a result
 * could carry terminal control sequences that rewrite what the operator sees (erase the screen,
 * move the cursor, overprint a line with CR, retitle the window or plant a link with OSC). Every
 * `cairn` command is run here as a real process against a Cairn API (CAIRN_API_URL) that answers
 * with such text in every field a command prints — ids, tasks, phases' steps, events, prompts,
 * results, errors, audit entries, refusals — and a user tool module whose description holds it
 * too: no output may hold a raw control character (but newline and tab), and the text must
 * still be there, spelled out. `--json` output stays JSON that parses to the very same text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCairn, type CliResult } from '../harness/cairn-cli';

/** ESC/CSI (7- and 8-bit), OSC ending in BEL and in 8-bit form, CR, backspace, DEL and a bidi override. */
const EVIL = 'A\x1b[2J\x1b[1;1HB\x1b]8;;http://evil.example/\x07C\x9b31mD\x9d0;owned\x07E\rF\x08G\x7fH\u202eI';
/** What EVIL looks like once spelled out. */
const SHOWN =
  'A\\u001b[2J\\u001b[1;1HB\\u001b]8;;http://evil.example/\\u0007C\\u009b31mD\\u009d0;owned\\u0007E\\rF\\bG\\u007fH\\u202eI';
/** Any control character a terminal acts on (newline and tab are allowed). */
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const ID = `agent-${EVIL}`;
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const event = (seq: number, type: string) => ({ seq, at: 1_800_000_000_000 + seq, type, message: `${type} ${EVIL}` });
const step = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: `title ${EVIL}`,
  status,
  usage,
  toolCalls: [],
  rounds: 1,
  attempts: 1,
  ...extra,
});

/** A state whose every printed field holds EVIL. */
function state(phase: 'awaiting_input' | 'completed') {
  const open = phase === 'awaiting_input';
  return {
    task: `task ${EVIL}`,
    phase,
    revision: 1,
    steps: [step('s1', 'completed', { result: `result ${EVIL}` }), step('s2', 'failed', { error: `error ${EVIL}` })],
    interactions: [
      { id: 'i1', kind: 'ask.query', prompt: `prompt ${EVIL}`, status: open ? 'open' : 'answered', createdAt: 1 },
    ],
    usage,
    events: [event(1, 'plan.created'), event(2, 'step.started'), event(3, 'tool.called')],
    eventSeq: 3,
    ...(open ? {} : { result: `answer ${EVIL}` }),
  };
}

let server: Server;
let url = '';
/** Answers posted; and whether a `run` started the agent (it then waits for an answer). */
let answers = 0;
let started = false;

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A Cairn API whose every answer holds EVIL; the first answer to i1 is refused, the second taken. */
function handle(req: IncomingMessage, res: ServerResponse): void {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  if (req.method === 'GET' && path === '/api/agents') {
    return reply(res, 200, {
      agents: [
        {
          id: ID,
          task: `task ${EVIL}`,
          phase: 'completed',
          awaitingInput: true,
          status: 'COMPLETED',
          version: `1.0.0+${EVIL}`,
        },
      ],
    });
  }
  if (req.method === 'POST' && path === '/api/agents') {
    started = true;
    return reply(res, 201, { id: ID });
  }
  if (req.method === 'GET' && path === `/api/agents/${ID}`) {
    return reply(res, 200, state(started && answers < 2 ? 'awaiting_input' : 'completed'));
  }
  if (req.method === 'GET' && path === `/api/agents/${ID}/stream`) {
    // The live output: model text, reasoning and a tool call's name and arguments, all holding EVIL.
    const call = { agentId: ID, stepId: `s1${EVIL}`, modelCallId: `m${EVIL}`, attempt: 1, purpose: 'step' };
    const frames: [string, unknown][] = [
      ['call.started', { ...call, streaming: true, at: 1 }],
      ['delta', { ...call, channel: 'reasoning', text: `thought ${EVIL}` }],
      ['delta', { ...call, channel: 'text', text: `live ${EVIL}` }],
      ['delta', { ...call, channel: 'tool', text: `{"a":"${EVIL}"}`, toolCallId: 't1', toolName: `tool${EVIL}` }],
      ['end', {}],
    ];
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(frames.map(([type, data], n) => `id: ${n}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`).join(''));
    return;
  }
  if (req.method === 'GET' && path === `/api/agents/${ID}/audit`) {
    const actor = { id: `who ${EVIL}`, name: `name ${EVIL}`, roles: [`role ${EVIL}`], method: 'web' };
    return reply(res, 200, {
      id: ID,
      entries: [{ at: 1, what: `what ${EVIL}`, interactionId: 'i1', decision: `decision ${EVIL}`, by: EVIL, actor }],
    });
  }
  if (req.method === 'POST' && path === `/api/agents/${ID}/answers`) {
    answers += 1;
    if (answers % 2 === 1) {
      return reply(res, 400, {
        error: { code: 'INVALID_ANSWER', message: `refused ${EVIL}`, field: `answer.${EVIL}` },
      });
    }
    return reply(res, 200, { interactionId: 'i1', answer: { text: 'x' } });
  }
  if (req.method === 'POST' && /\/(cancel|pause|resume)$/.test(path)) return reply(res, 202, { id: ID });
  return reply(res, 500, { error: { code: 'INTERNAL', message: `broken ${EVIL}` } });
}

let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-cli-escapes-'));
  server = createServer(handle);
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  url = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  answers = 0;
  started = false;
});

const api = () => ({ CAIRN_API_URL: url, CAIRN_TOKEN: 'escape-test-token' });

/** Nothing raw on either stream, and EVIL spelled out in the output. */
function expectSafe(run: CliResult, where: 'stdout' | 'stderr' | 'both' = 'stdout'): void {
  expect(run.stdout).not.toMatch(RAW);
  expect(run.stderr).not.toMatch(RAW);
  const text = where === 'stdout' ? run.stdout : where === 'stderr' ? run.stderr : run.stdout + run.stderr;
  expect(text).toContain(SHOWN);
}

test.each([
  ['ls', ['ls']],
  ['show', ['show', ID]],
  ['watch', ['watch', ID]],
  ['audit', ['audit', ID]],
  ['cancel', ['cancel', ID]],
  ['pause', ['pause', ID, '--reason', EVIL]],
  ['resume', ['resume', ID]],
])('cairn %s prints the text spelled out, never raw', async (_name, args) => {
  const run = await runCairn(args, api());
  expectSafe(run);
});

test("cairn watch prints the model's live words, reasoning and tool calls spelled out, never raw", async () => {
  const run = await runCairn(['watch', ID, '--reasoning'], api());
  expectSafe(run);
  for (const shown of [`live ${SHOWN}`, `thought ${SHOWN}`, `tool${SHOWN}`, `[s1${SHOWN}]`]) {
    expect(run.stdout).toContain(shown);
  }
});

test('cairn answer: a refusal that echoes the text is spelled out on stderr', async () => {
  const run = await runCairn(['answer', ID, 'i1', '{"text":"x"}'], api());
  expect(run.code).toBe(1);
  expectSafe(run, 'stderr');
});

test('a usage error that echoes what was typed is spelled out on stderr', async () => {
  const run = await runCairn(['ls', `--${EVIL}`], api());
  expect(run.code).toBe(2);
  expectSafe(run, 'stderr');
});

test('an error the server sends is spelled out on stderr', async () => {
  const run = await runCairn(['show', `missing-${EVIL}`], api());
  expect(run.code).toBe(1);
  expectSafe(run, 'stderr');
});

test('cairn run: events, the refusal of an answer and the final answer, spelled out', async () => {
  const stdin = `${JSON.stringify({ text: 'first' })}\n${JSON.stringify({ text: 'second' })}\n`;
  const run = await runCairn(['run', `task ${EVIL}`], api(), stdin);
  expect(run.code).toBe(0);
  expectSafe(run, 'both');
  expect(run.stderr).toContain(`answer rejected: refused ${SHOWN}`);
  expect(run.stdout).toContain(`answer ${SHOWN}`);
});

test('--json stays JSON, and parses to the very text sent', async () => {
  const show = await runCairn(['show', ID, '--json'], api());
  expect(show.stdout).not.toMatch(RAW);
  const shown = JSON.parse(show.stdout) as { task: string; id: string; answer?: string; result?: string };
  expect(shown.task).toBe(`task ${EVIL}`);
  expect(shown.id).toBe(ID);
  // `cairn show --json` has the answer under both names, as the HTTP API's state does.
  expect(shown.result).toBe(`answer ${EVIL}`);
  expect(shown.answer).toBe(shown.result);
  const stdin = `${JSON.stringify({ text: 'first' })}\n${JSON.stringify({ text: 'second' })}\n`;
  const run = await runCairn(['run', 'x', '--json'], api(), stdin);
  expect(run.stdout).not.toMatch(RAW);
  expect(run.stderr).not.toMatch(RAW);
  // The answer under both names: `answer` (as before) and `result`, as the HTTP API's state has it.
  expect(JSON.parse(run.stdout)).toMatchObject({ id: ID, answer: `answer ${EVIL}`, result: `answer ${EVIL}` });
  const ls = await runCairn(['ls', '--json'], api());
  expect((JSON.parse(ls.stdout) as { task: string }[])[0]?.task).toBe(`task ${EVIL}`);
});

test('cairn tools: a user tool whose description holds the text', async () => {
  const module = join(dir, 'evil-tools.ts');
  const defineTool = join(__dirname, '..', '..', 'activities', 'tools', 'define-tool');
  writeFileSync(
    module,
    [
      `import { z } from ${JSON.stringify(require.resolve('zod'))};`,
      `import { defineTool } from ${JSON.stringify(defineTool)};`,
      'export const evil = defineTool({',
      "  name: 'evil',",
      `  description: ${JSON.stringify(`description ${EVIL}`)},`,
      "  effect: 'read',",
      '  input: z.object({}),',
      "  run: () => Promise.resolve('ok'),",
      '});',
    ].join('\n'),
  );
  const run = await runCairn(['tools'], { CAIRN_TOOLS: module, CAIRN_WORKSPACE: join(dir, 'ws') });
  expect(run.code).toBe(0);
  expectSafe(run);
});
