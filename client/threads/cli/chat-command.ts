/**
 * `cairn chat`: a conversation at the terminal. Each line is a message to a thread (a new one, or
 * `--thread <id>`); a chat reply is printed as it is written, a task turn's agent is followed as `cairn run`
 * follows one — its timeline, and every interaction (plan check, questions, approvals) put to the
 * person inline (driveAgent) — until the turn ends and its answer is printed (or, when it failed,
 * why); then the next line. `/file <path>` attaches a file to the next message (uploaded through the API, else copied
 * into the thread's folder under CAIRN_WORKSPACE). `/exit` or the end of input ends it. When stdin is not a terminal, messages and answers
 * come from the same lines: a message per line, and while a question waits, one JSON answer per
 * line as for `cairn run`. With CAIRN_API_URL it goes through Cairn's HTTP API (the token's
 * principal sends and answers), else straight to Temporal.
 */
import { userInfo } from 'node:os';
import { loadConfigOrExit } from '../../../config/load-config-or-exit';
import { encryptionOn } from '../../../temporal/payloads/data-converter';
import type { Turn } from '../../../workflows/contract/thread-contract';
import { AgentClient } from '../../agents/agent-client';
import { settledText, turnSettled } from '../follow-turn';
import { pause } from '../../agents/follow-timeline';
import { LiveHub } from '../../live/live-hub';
import { ThreadClient, type SendHooks } from '../thread-client';
import { InputEndedError, type AnswerSource } from '../../agents/cli/answer-source';
import { CairnApi, cliApi } from '../../cli/cairn-api';
import { followThroughHub, withStreamedReply } from './chat-stream';
import { messageBody, threadsOverApi, turnIn, type ChatOptions, type ChatThreads, type Printed } from './chat-threads';
import { EXIT, UsageError, exitCodeForError } from '../../cli/cli-exit';
import { driveAgent, type AgentPort } from '../../agents/cli/drive-agent';
import { isPromptExit } from '../../cli/prompter';
import { PromptingAnswers } from '../../agents/cli/prompting-answers';
import { formatEvent, formatUsage } from '../../agents/cli/render';
import { localFiles, sendWithLocalFiles, type LocalFile } from '../../uploads/cli/run-files';
import { LineQueue, ScriptedAnswers } from '../../agents/cli/scripted-answers';
import { printError, printLine, promptStream } from '../../cli/terminal';
import { TtyPrompter } from '../../cli/tty-prompter';

/** The options of `cairn chat`. */
/** Where messages and answers come from. */
interface ChatInput {
  /** The next message; undefined at the end of input. */
  next(): Promise<string | undefined>;
  answers: AnswerSource;
}

/** Runs the command; resolves with the exit code. */
export async function chatCommand(options: ChatOptions): Promise<number> {
  const target = cliApi();
  if (target) {
    const api = new CairnApi(target);
    return converse(threadsOverApi(api, target, printError), api, options, options.by);
  }
  const config = loadConfigOrExit();
  const client = await AgentClient.connect(config);
  try {
    const by = options.by ?? defaultSender();
    const direct = new ThreadClient(
      client.temporal,
      config.taskQueue,
      !encryptionOn(config.payloads),
      undefined,
      config.threads,
    );
    // Files are copied into the thread's folder first (CAIRN_WORKSPACE must reach the workers'), so a new thread's id is picked here.
    const withPaths = (paths: string[]) => (paths.length ? { files: paths } : {});
    const follow = followThroughHub(new LiveHub({ client: client.temporal }));
    /**
     * Sends, printing the chat reply as it is written. Once the thread has recorded the message,
     * a failure of the send (the turn failed for good) is the turn's to tell, as through the API:
     * `recorded` stands for the result and the conversation goes on.
     */
    const streamed = async <T, R>(
      send: (hooks: SendHooks) => Promise<T>,
      recorded: (thread: string, messageId: string) => R,
    ): Promise<(T | R) & Printed> => {
      const { result, printed } = await withStreamedReply<T | R>(follow, async (hooks) => {
        let taken: R | undefined;
        try {
          return await send({
            accepted: (thread, messageId) => {
              taken = recorded(thread, messageId);
              hooks.accepted?.(thread, messageId);
            },
          });
        } catch (err) {
          if (taken === undefined) throw err;
          return taken;
        }
      });
      return { ...result, printed };
    };
    const threads: ChatThreads = {
      open: (message, files) => {
        const workflowId = direct.newId(message.text);
        return sendWithLocalFiles(config, workflowId, files, (paths) =>
          streamed(
            (hooks) => direct.open({ ...message, ...withPaths(paths), by }, { workflowId, ...hooks }),
            (id, messageId) => ({ id, messageId }),
          ),
        );
      },
      send: (id, message, files) =>
        sendWithLocalFiles(config, id, files, (paths) =>
          streamed(
            (hooks) => direct.send(id, { ...message, ...withPaths(paths), by }, hooks),
            (_, messageId) => ({ messageId }),
          ),
        ),
      get: (id) => direct.get(id),
    };
    return await converse(threads, client, options, by);
  } finally {
    await client.close();
  }
}

/** The conversation loop: a line, its turn, the next line. */
async function converse(
  threads: ChatThreads,
  agents: AgentPort,
  options: ChatOptions,
  by: string | undefined,
): Promise<number> {
  const input = chatInput();
  let thread = options.thread;
  if (thread !== undefined) {
    // A read shows a page of the newest turns and counts the older ones it leaves out.
    const view = await threads.get(thread);
    printLine(`thread ${thread}: ${view.turns.length + (view.olderTurns ?? 0)} turns so far`);
  }
  /** Files `/file` attached, for the next message. */
  let attached: LocalFile[] = [];
  try {
    for (;;) {
      const line = await input.next();
      if (line === undefined || line.trim() === '/exit') return EXIT.ok;
      if (line.trim() === '') continue;
      const file = FILE_COMMAND.exec(line.trim());
      if (file) {
        attached = attach(attached, file[1] ?? '');
        continue;
      }
      const message = messageBody(line, options);
      const files = attached;
      attached = [];
      let messageId: string | undefined;
      let printed: string | undefined;
      try {
        if (thread === undefined) {
          const opened = await threads.open(message, files);
          thread = opened.id;
          ({ messageId, printed } = opened);
          printLine(`thread ${thread}`);
        } else {
          ({ messageId, printed } = await threads.send(thread, message, files));
        }
      } catch (err) {
        // Files refused (a limit, no workspace to put them in; here or by the server): said, and
        // the conversation goes on.
        if (!(err instanceof Error) || exitCodeForError(err) !== EXIT.usage) throw err;
        printError(`${err.message}; the message was not sent`);
        continue;
      }
      if (messageId === undefined) throw new Error(`thread ${thread} took the message without a message id`);
      await followMessage(threads, agents, { thread, messageId, printed }, input.answers, by);
    }
  } catch (err) {
    if (err instanceof InputEndedError) {
      printError(err.message);
      return EXIT.usage;
    }
    if (isPromptExit(err)) return EXIT.interrupted;
    throw err;
  }
}

/**
 * Follows one message: a chat reply printed (unless it was, whole, as it was written), or its
 * task turn's agent driven to its end and the answer printed.
 */
async function followMessage(
  threads: ChatThreads,
  agents: AgentPort,
  { thread, messageId, printed }: { thread: string; messageId: string; printed: string | undefined },
  answers: AnswerSource,
  by: string | undefined,
): Promise<void> {
  let driven = false;
  for (;;) {
    const turn = await turnOf(threads, thread, messageId);
    if (turnSettled(turn)) {
      // The reply as recorded is trimmed (a reasoning block taken out leaves a line break that streamed).
      if (!printed || printed.trim() !== turn.reply) printLine(settledText(turn));
      return;
    }
    if (turn.status === 'running' && turn.agentId !== undefined && !driven) {
      printLine(`task: agent ${turn.agentId}`);
      const outcome = await driveAgent(agents, turn.agentId, answers, {
        ...(by !== undefined ? { by } : {}),
        onEvent: (event) => printLine(formatEvent(event)),
        onNotice: (notice) => printError(notice),
      });
      printLine(`${outcome.status} · ${formatUsage(outcome.usage)}`);
      // The thread records the end of its turn just after the agent's: its answer comes from there.
      driven = true;
      continue;
    }
    await pause(300);
  }
}

async function turnOf(threads: ChatThreads, thread: string, messageId: string): Promise<Turn> {
  return turnIn(await threads.get(thread), messageId);
}

/** `/file <path>`: a file for the next message. */
const FILE_COMMAND = /^\/file(?:\s+(.*))?$/;

/** `attached` plus the file `/file` named (said), or as it was when the path is no readable file (said too). */
function attach(attached: LocalFile[], given: string): LocalFile[] {
  if (given.trim() === '') {
    printError('/file needs a path: /file <path> attaches a file to your next message');
    return attached;
  }
  try {
    const [file] = localFiles([given.trim()], process.cwd(), '/file');
    if (!file) return attached;
    printLine(`attached ${file.name} (${file.size} bytes): it goes with your next message`);
    return [...attached, file];
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    printError(err.message);
    return attached;
  }
}

/** A terminal asks with prompts; otherwise messages and JSON answers are read from the same lines. */
function chatInput(): ChatInput {
  if (process.stdin.isTTY) {
    const prompter = new TtyPrompter(promptStream('out'));
    return {
      next: async () => {
        try {
          return await prompter.text('you');
        } catch (err) {
          // Ctrl-D or Ctrl-C at the message prompt ends the conversation.
          if (isPromptExit(err)) return undefined;
          throw err;
        }
      },
      answers: new PromptingAnswers(prompter),
    };
  }
  const lines = new LineQueue(process.stdin);
  return { next: () => lines.next(), answers: new ScriptedAnswers(lines, (message) => printError(message)) };
}

/** Who sends by default straight to Temporal: the login name, as `<name>@cli`. */
function defaultSender(): string {
  try {
    return `${userInfo().username}@cli`;
  } catch {
    return 'cli';
  }
}
