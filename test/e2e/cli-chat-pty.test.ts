/**
 * `cairn chat` on a real pseudo-terminal (util-linux `script`, test/harness/pty.ts): stdin is a
 * TTY, so messages are typed at the `you` prompt and a task turn's question and write approval
 * are answered at their prompts (keys, not JSON lines). A chat reply is printed as the model
 * writes it (the scripted reply holds its rest until the screen shows its start), then the task
 * turn's step asks, writes a file once approved and the answer is printed; `/exit` ends it with
 * exit code 0 — straight to Temporal and through the HTTP API with a token (where the message is
 * sent `?wait=recorded` and the reply read from the thread's SSE stream). Asserted from the
 * screen, the scripted model's request log and the thread.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply } from '../fake-llm/replies';
import { chatThenBrief } from '../harness/chat-then-brief';
import { agentTestbed } from '../harness/agent-testbed';
import { agentFile } from '../harness/agents';
import { cairnOnPty } from '../harness/pty';
import { testConfig, withWorker } from '../harness/test-env';
import { cliTarget, STRAIGHT, THROUGH_API, type CliWay } from '../harness/cli-ways';
import { ThreadClient } from '../../client/threads/thread-client';

const bed = agentTestbed();

test.each<CliWay>([STRAIGHT, THROUGH_API])(
  'cairn chat on a terminal %s: a chat reply printed as it is written, then a task turn whose question and approval are answered at the prompts',
  async (way) => {
    const workspace = mkdtempSync(join(tmpdir(), 'cli-chat-pty-'));
    const config = testConfig(bed.llm, { CAIRN_WORKSPACE: workspace });
    bed.config = config;
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Its first chunk ("Hello!"), then the rest once the screen has shown that.
    bed.llm.respondWith(chatThenBrief(reply.pauseAfter(reply.text('Hello! What shall we write?'), 2, gate)));
    await withWorker(config, async () => {
      const target = await cliTarget(way, bed.client, config.taskQueue, {
        CAIRN_TASK_QUEUE: config.taskQueue,
        CAIRN_WORKSPACE: workspace,
      });
      try {
        const pty = cairnOnPty(['chat'], target.env);
        let at = await pty.waitFor('you');
        pty.type('hi there\r');
        try {
          // Printed as it is written: the start shows while the model still holds the rest.
          at = await pty.waitFor('Hello!', at);
          expect(pty.screen()).not.toContain('What shall we write?');
          expect(bed.llm.requestsFor('chat')[0]?.answeredAt).toBeUndefined();
        } finally {
          release();
        }
        at = await pty.waitFor('What shall we write?', at);
        at = await pty.waitFor('you', at);
        pty.type('write the brief\r');
        at = await pty.waitFor('Who reads the brief?', at);
        pty.type('engineers\r');
        at = await pty.waitFor('Allow this call?', at);
        pty.type('\r'); // the first choice: approve
        at = await pty.waitFor('The brief is in brief.txt.', at);
        await pty.waitFor('you', at);
        pty.type('/exit\r');
        expect(await pty.done).toBe(0);

        const screen = pty.screen();
        const thread = /thread (thread-[a-z0-9-]+)/.exec(screen)?.[1] ?? '';
        expect(thread).not.toBe('');
        // Drawn by the terminal prompts (a piped stdin reads bare lines and JSON answers instead).
        expect(screen).toContain('✔ you hi there');
        // The streamed reply is not printed again once recorded.
        expect(screen.split('What shall we write?')).toHaveLength(2);
        expect(screen).toContain('✔ Allow this call? approve');
        expect(screen).toContain(`task: agent ${thread}/turn-2`);
        expect(screen).toMatch(/s1 write_file → ok/);
        expect(screen).toMatch(/completed · \d+ tokens/);
        // What was typed at the question reached the step; the approved write ran in the thread's folder.
        expect(bed.llm.heardBack('q1')).toContain('engineers');
        expect(readFileSync(agentFile(workspace, thread, 'brief.txt'), 'utf8')).toBe('for engineers');
        const view = await new ThreadClient(bed.client, config.taskQueue).get(thread);
        expect(view.turns.map((t) => [t.kind, t.status, t.reply])).toEqual([
          ['chat', 'completed', 'Hello! What shall we write?'],
          ['task', 'completed', 'The brief is in brief.txt.'],
        ]);
      } finally {
        await target.close();
      }
    });
  },
);
