/**
 * `cairn run "<task>"`: starts an agent and follows it to the end — live step progress, each
 * open interaction put to a person at the prompt (stdin a terminal) or to scripted answers
 * (stdin not a terminal: one JSON answer per line) — then prints the answer and token usage.
 */
import { userInfo } from 'node:os';
import { loadConfigOrExit } from '../../../config/load-config-or-exit';
import { AgentClient } from '../agent-client';
import { InputEndedError, type AnswerSource } from './answer-source';
import { EXIT, exitCodeOf } from '../../cli/cli-exit';
import { CairnApi, cliApi } from '../../cli/cairn-api';
import { LIVE_TAIL_MS, liveFromTemporal, settledWithin, type LiveFollower } from '../../live/cli/live-follow';
import { followLiveOverHttp } from '../../live/cli/live-over-http';
import { LivePrinter } from '../../live/cli/live-printer';
import { driveAgent, type AgentPort, type RunOutcome } from './drive-agent';
import { isPromptExit } from '../../cli/prompter';
import { PromptingAnswers } from './prompting-answers';
import { formatEvent, formatUsage } from './render';
import { formatGraphPath } from '../../graphs/cli/render-graph';
import { LineQueue, ScriptedAnswers } from './scripted-answers';
import { TtyPrompter } from '../../cli/tty-prompter';
import { graphChoice, runMode } from '../../graphs/cli/graph-option';
import { agentOptions, checkRunInput, type AgentOptionFlags } from './agent-options';
import { loadGraphRegistry } from '../../graphs/load-graphs';
import { knownEndpoints, loadDefinitionRegistry } from '../../definitions/load-definitions';
import { printError, printLine, promptStream, write, type Channel } from '../../cli/terminal';
import { localFiles, startWithLocalFiles } from '../../uploads/cli/run-files';

/** The options of `cairn run` as commander parses them (`--no-plan` sets `plan: false`). */
export interface RunOptions extends AgentOptionFlags {
  plan: boolean;
  ask?: boolean;
  confirmPlan?: boolean;
  json?: boolean;
  by?: string;
  /** Print the model's words as they form (`--no-live` sets false; never under `--json`). */
  live?: boolean;
  /** Print its reasoning too. */
  reasoning?: boolean;
  /** `--graph <file|name>`: a graph's JSON file, or a registered graph's name (graph-option.ts). */
  graph?: string;
  /** `--file <path>`, repeatable: files the agent is given, stored as `inputs/<name>` (run-files.ts). */
  file?: string[];
  /** `--definition <name>`: an agent definition of CAIRN_AGENTS (or the server's) fills the input. */
  definition?: string;
}

/**
 * The mode the flags ask for. With a definition, none unless a planning flag was given: the
 * definition's mode applies, and a start may change it only where the definition allows.
 */
function modeOf(options: RunOptions, replanAfter: string | undefined): Record<string, unknown> | undefined {
  const flags = { ...options, ...(replanAfter !== undefined ? { replanAfter } : {}) };
  const asked = !options.plan || !!options.ask || !!options.confirmPlan || replanAfter !== undefined;
  if (options.definition !== undefined && !asked) return undefined;
  return runMode(flags, options.graph !== undefined);
}

/**
 * Runs the command; resolves with the exit code. With CAIRN_API_URL set it goes through Cairn's
 * HTTP API with CAIRN_TOKEN: the token's principal starts the agent and answers (its `by` is the
 * principal unless `--by` says otherwise, which the server refuses unless it is the same).
 */
export async function runCommand(task: string, options: RunOptions): Promise<number> {
  const { fields, replanAfter } = agentOptions(options, process.cwd());
  const mode = modeOf(options, replanAfter);
  const chosen = options.graph === undefined ? {} : await graphChoice(options.graph, process.cwd());
  const definition = options.definition !== undefined ? { definition: options.definition } : {};
  const input = checkRunInput({ task, ...(mode ? { mode } : {}), ...fields, ...chosen, ...definition });
  // A file that is not there stops the run here, before anything starts.
  const files = localFiles(options.file ?? [], process.cwd());
  const target = cliApi();
  if (target) {
    // A graph's or definition's name is the server's to resolve, from its own CAIRN_GRAPHS and CAIRN_AGENTS.
    const api = new CairnApi(target);
    const id = await api.start(input, files);
    return follow(api, id, options, options.by, (agent, listener, notice) =>
      followLiveOverHttp(target, agent, listener, notice),
    );
  }
  const config = loadConfigOrExit();
  // The graph and definition modules are loaded only when a name must resolve: a plain run never depends on them.
  const graphs =
    chosen.graphName === undefined ? {} : { graphs: await loadGraphRegistry(config.graphs.module, process.cwd()) };
  const definitions =
    options.definition === undefined
      ? {}
      : { definitions: await loadDefinitionRegistry(config.definitions.module, process.cwd(), knownEndpoints(config)) };
  const client = await AgentClient.connect(config, { ...graphs, ...definitions });
  try {
    const id = await startWithLocalFiles(client, config, input, files);
    return await follow(client, id, options, options.by ?? defaultAnswerer(), liveFromTemporal(client));
  } finally {
    await client.close();
  }
}

/** Follows the started agent; an interrupted session leaves the agent running. */
async function follow(
  client: AgentPort,
  id: string,
  options: RunOptions,
  by: string | undefined,
  live: LiveFollower,
): Promise<number> {
  // Under --json, stdout carries only the result: progress and prompts go to stderr.
  const progress: Channel = options.json ? 'err' : 'out';
  write(progress, `agent ${id} started\n`);
  const printer = options.json || options.live === false ? undefined : new LivePrinter(progress, options);
  // Notices go to stderr, after the live text's half-printed line is ended.
  const note = (message: string) => (printer ? printer.notice(message) : printError(message));
  const stopLive = printer ? live(id, printer, note) : () => {};
  try {
    const source = answerSource(progress, note);
    // A person at a prompt sees only the question while they answer; scripted answers hold nothing.
    const asks = printer && source instanceof PromptingAnswers ? quietWhileAsking(source, printer) : source;
    const outcome = await driveAgent(client, id, asks, {
      ...(by !== undefined ? { by } : {}),
      onEvent: (event) => (printer ? printer.line(formatEvent(event)) : write(progress, `${formatEvent(event)}\n`)),
      onNotice: note,
    });
    if (printer) await settledWithin(printer.ended, LIVE_TAIL_MS);
    stopLive();
    if (!options.json) await printGraphPath(client, id, note);
    printOutcome(outcome, options.json ?? false, printer);
    return exitCodeOf(outcome.status);
  } catch (err) {
    stopLive();
    const interrupted = isPromptExit(err);
    if (!(err instanceof InputEndedError) && !interrupted) throw err;
    const message = err instanceof InputEndedError ? err.message : `interrupted; agent ${id} keeps running`;
    note(message);
    if (options.json) printLine(JSON.stringify({ id, status: 'detached', error: message }));
    return interrupted ? EXIT.interrupted : EXIT.usage;
  }
}

/** `source`, with the live printer holding its output while each question is asked and answered. */
function quietWhileAsking(source: AnswerSource, printer: LivePrinter): AnswerSource {
  return {
    async answer(interaction, request) {
      printer.hold();
      try {
        return await source.answer(interaction, request);
      } finally {
        printer.release();
      }
    },
  };
}

/** Prompts when stdin is a terminal, else scripted answers read from stdin. */
function answerSource(progress: Channel, note: (message: string) => void): AnswerSource {
  if (process.stdin.isTTY) return new PromptingAnswers(new TtyPrompter(promptStream(progress)));
  return new ScriptedAnswers(new LineQueue(process.stdin), note);
}

/**
 * A graph agent's path once it ended, each visit with its step id; nothing for a planned agent.
 * The outcome matters more: a state that cannot be read now is a notice, not a failed run.
 */
async function printGraphPath(client: AgentPort, id: string, note: (message: string) => void): Promise<void> {
  try {
    const path = formatGraphPath(await client.state(id, Number.MAX_SAFE_INTEGER));
    if (path !== undefined) printLine(`\n${path}`);
  } catch (err) {
    note(`the path of ${id} could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The final answer (unless the live output showed it whole) and usage for people, or the one JSON object for `--json`: the answer as
 * `answer` and, as the HTTP API's state names it, `result` beside it.
 */
function printOutcome(outcome: RunOutcome, json: boolean, printer: LivePrinter | undefined): void {
  if (json) {
    printLine(JSON.stringify({ ...outcome, ...(outcome.answer !== undefined ? { result: outcome.answer } : {}) }));
    return;
  }
  printLine(`\n${outcome.status} · ${formatUsage(outcome.usage)}`);
  // The answer streamed in full under [answer] is not printed a second time.
  if (outcome.answer !== undefined && !printer?.printedAnswer(outcome.answer)) printLine(`\n${outcome.answer}`);
  if (outcome.error !== undefined) printError(`error: ${outcome.error}`);
}

/** Who answers by default: the login name, as `<name>@cli`. */
function defaultAnswerer(): string {
  try {
    return `${userInfo().username}@cli`;
  } catch {
    return 'cli';
  }
}
