/**
 * docs/openai-api.md's JavaScript example, run as written (only its address moved to the test's
 * server) with the official `openai` client against Cairn with authentication off, as `npm
 * start` runs it, and no key in the environment: the placeholder key the example falls back to
 * lets the SDK start, the server takes it, and the streamed reply of the thread it continued
 * is what the example prints.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ThreadClient } from '../../client/threads/thread-client';
import { reply } from '../fake-llm/replies';
import { byRoute } from '../fake-llm/routes';
import { agentTestbed } from '../harness/agent-testbed';
import { testApp } from '../harness/http-app';
import { serveOnLoopback } from '../harness/sse-client';
import { withWorker } from '../harness/test-env';
import { blocksOf } from '../harness/doc-blocks';

const ROOT = join(__dirname, '..', '..');
const bed = agentTestbed();

/** The doc's one `js` block, as the docs-as-tests reader finds it. */
function jsExample(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'openai-api.md'), 'utf8');
  const block = blocksOf('docs/openai-api.md', doc).find((b) => b.language === 'js');
  if (block === undefined) throw new Error('docs/openai-api.md has no js example');
  return block.text;
}

/** Runs ES module `code` with node in the repository (so `openai` resolves), with no key in its environment. */
function runModule(code: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (exit) => resolve({ code: exit, out, err })));
}

test('the JavaScript example runs with authentication off and no key set: the placeholder key, the thread continued, the reply streamed', async () => {
  bed.llm.respondWith(
    byRoute({
      'route-message': [
        reply.json({ kind: 'chat', reason: 'a greeting' }),
        reply.json({ kind: 'chat', reason: 'more' }),
      ],
      chat: [reply.text('Hello.'), reply.text('Pricing: both have free plans.')],
    }),
  );
  const threads = new ThreadClient(bed.client, bed.config.taskQueue);
  const app = testApp(bed.client, bed.config.taskQueue, { threads });
  const served = await serveOnLoopback(app);
  try {
    await withWorker(bed.config, async () => {
      const example = jsExample();
      expect(example).toContain("'http://localhost:3000/v1'");
      const run = await runModule(example.replaceAll('http://localhost:3000', served.url));
      expect({ code: run.code, out: run.out, err: run.err }).toEqual({
        code: 0,
        out: 'Pricing: both have free plans.',
        err: '',
      });
      // Both messages went to the one thread the first opened (X-Cairn-Thread sent back).
      const listed = await threads.list();
      expect(listed).toHaveLength(1);
      expect((await threads.get(listed[0]?.id ?? '')).turns.map((t) => t.text)).toEqual([
        'Hi!',
        'Now also compare pricing',
      ]);
    });
  } finally {
    await served.close();
  }
});
