/**
 * The `cairn` command line (docs/contracts.md#cli): `run` an agent interactively, `chat`, `ls`, `show`,
 * `watch`, `answer`, `cancel`, `pause`, `resume`, `graphs`, `definitions` and `tools`. Exit codes: 0 completed / done, 1 failed or error,
 * 2 bad usage or configuration, 3 cancelled (see cli-exit.ts).
 */
import { Command } from 'commander';
import { version } from '../../package.json';
import { AGENT_PHASES } from '../../workflows/model/state/agent-phases';
import type { WatchOptions } from '../agents/cli/agent-commands';
import type { RunOptions } from '../agents/cli/run-command';
import { RUN_HELP } from '../agents/cli/run-help';
import { write } from './terminal';

/** What a usage error exits with; the same as cli-exit.ts's EXIT.usage, which is not loaded for help. */
const EXIT_USAGE = 2;

const program = new Command('cairn')
  .description('Durable plan-and-act agents on Temporal')
  .version(version)
  // Usage errors exit 2 (commander's default is 1); help and --version still exit 0.
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : EXIT_USAGE))
  // Commander's help and errors (which echo what was typed) go through the terminal boundary too.
  .configureOutput({ writeOut: (text) => write('out', text), writeErr: (text) => write('err', text) });

/** `--kind` checked: chat, task, or absent. */
async function chatKind(kind: string | undefined): Promise<'chat' | 'task' | undefined> {
  if (kind === undefined || kind === 'chat' || kind === 'task') return kind;
  const { UsageError } = await import('./cli-exit');
  throw new UsageError(`--kind must be chat or task, not ${JSON.stringify(kind)}`);
}

// Each command's modules load when it runs: `--help` loads none of them, and a command loads
// only what it needs (the Temporal client, zod schemas, the tool registry are each hundreds of
// milliseconds to import).
const agentCommands = () => import('../agents/cli/agent-commands');
const deployCommands = () => import('../agents/cli/deploy-command');

/** Runs an action and exits with the code it resolves with. */
const exitWith = (code: Promise<number>) => code.then((c) => process.exit(c));

program
  .command('run')
  .description('start an agent on <task> and drive it: progress, questions, plan check, approvals')
  .argument('<task>', 'what the agent should do')
  .option('--no-plan', 'plain ReAct: one step on the whole task, no plan')
  .option('--ask', 'let the planner ask clarifying questions')
  .option('--confirm-plan', 'check the plan before it runs')
  .option('--json', 'print only one JSON object { id, status, answer, result, usage } to stdout at the end')
  .option('--by <name>', 'who answers (audit record); default <login>@cli')
  .option('--no-live', "only progress lines: leave out the model's words as they form")
  .option('--reasoning', "print the model's reasoning too (marked [reasoning])")
  .option(
    '--graph <file|name>',
    'run an agent graph instead of a plan: a .json file, or a name registered in CAIRN_GRAPHS (see `cairn graphs`)',
  )
  .option(
    '--file <path>',
    'give the agent a file, stored as inputs/<name> in its folder (repeatable; through CAIRN_API_URL it is uploaded, else copied into CAIRN_WORKSPACE)',
    (path: string, paths: string[] = []) => [...paths, path],
  )
  .option(
    '--definition <name>',
    "run an agent definition: its instructions, tools, model, mode and limits (CAIRN_AGENTS, or the server's; see `cairn definitions`)",
  )
  .option('--model <name>', "the model's name (default: the configured model)")
  .option('--temperature <t>', 'sampling temperature, 0 to 2')
  .option('--system-prompt <text>', "the agent's system prompt")
  .option('--system-prompt-file <path>', 'read the system prompt from a file')
  .option('--tools <a,b>', 'only these tools (comma-separated; default every registered tool, see `cairn tools`)')
  .option('--max-step-rounds <n>', 'model rounds one step may take (default 30)')
  .option('--max-parallel <n>', 'steps that run at once (default 4)')
  .option('--token-budget <n>', 'tokens the agent may spend; at the limit a person is asked to raise it or stop')
  .option('--cost-budget <usd>', 'US dollars the agent may spend (from the price table)')
  .option('--deadline <duration>', 'stop after this long: 30m, 2h, 90s, or milliseconds')
  .option(
    '--replan-after <listed|each>',
    'revise the remaining plan after the steps it lists (default) or after each step',
  )
  .option('--on-rounds-exhausted <fail|deliver>', 'a step out of rounds fails (default) or delivers its best answer')
  .option(
    '--on-step-failure <fail|continue|ask>',
    'a failed step fails the agent (default), is skipped, or a person decides',
  )
  .addHelpText('after', RUN_HELP)
  .action((task: string, options: RunOptions) =>
    exitWith(import('../agents/cli/run-command').then((m) => m.runCommand(task, options))),
  );

program
  .command('chat')
  .description(
    'talk to Cairn: each line a message to a thread; chat replies printed, task turns driven like `run` (questions, plan checks, approvals inline); /exit or end of input ends',
  )
  .option('--thread <id>', 'continue this thread (default: a new one)')
  .option('--kind <chat|task>', 'route every message as this kind (default: the router decides)')
  .option('--ask', "let a task turn's planner ask clarifying questions")
  .option('--confirm-plan', "check a task turn's plan before it runs")
  .option('--by <name>', 'who sends and answers (audit record); default <login>@cli')
  .addHelpText(
    'after',
    `
\`/file <path>\` attaches a file to the next message (stored in the thread's folder as
inputs/<name>: uploaded through CAIRN_API_URL, else copied under CAIRN_WORKSPACE).
When stdin is not a terminal, each line is a message, and while a question of a task turn waits
the next lines are its JSON answers (as for \`cairn run --help\`).`,
  )
  .action((options: { thread?: string; kind?: string; by?: string; ask?: boolean; confirmPlan?: boolean }) =>
    exitWith(
      import('../threads/cli/chat-command').then(async (m) =>
        m.chatCommand({ ...options, kind: await chatKind(options.kind) }),
      ),
    ),
  );

program
  .command('ls')
  .description('list agents, newest first')
  .option('--phase <phase>', `only agents in this phase (${AGENT_PHASES.join(', ')})`)
  .option('--waiting', 'only agents waiting for a human')
  .option('--json', 'print JSON for scripts')
  .action((options: { phase?: string; waiting?: boolean; json?: boolean }) =>
    exitWith(agentCommands().then((m) => m.listCommand(options))),
  );

program
  .command('show')
  .description("an agent's state: phase, plan steps, open questions, usage, answer")
  .argument('<id>', 'agent workflow id')
  .option('--json', 'print the whole state as JSON')
  .action((id: string, options: { json?: boolean }) =>
    exitWith(agentCommands().then((m) => m.showCommand(id, options))),
  );

program
  .command('watch')
  .description("follow an agent's timeline, and the model's words as they form, until it ends (exit code as for run)")
  .argument('<id>', 'agent workflow id')
  .option('--json', 'one JSON object per event (JSON lines); no live text')
  .option('--no-live', "only the timeline: leave out the model's words as they form")
  .option('--reasoning', "print the model's reasoning too (marked [reasoning])")
  .action((id: string, options: WatchOptions) => exitWith(agentCommands().then((m) => m.watchCommand(id, options))));

program
  .command('answer')
  .description(
    "answer an open interaction (see `cairn run --help` for the answer shapes); a word is that kind's answer",
  )
  .argument('<id>', 'agent workflow id')
  .argument('<interactionId>', 'interaction id, e.g. i1')
  .argument('<answer>', 'the answer as JSON, or a word: approve | reject, confirm | cancel, retry | skip | abort, stop')
  .option('--by <name>', 'who answers (audit record)')
  .option('--signal', 'send as a signal (fire-and-forget) instead of an update (verdict at once)')
  .action((id: string, interactionId: string, answer: string, options: { by?: string; signal?: boolean }) =>
    exitWith(agentCommands().then((m) => m.answerCommand(id, interactionId, answer, options))),
  );

program
  .command('audit')
  .description('every decision on an agent (answers and who gave them, expiries, pauses, the end), oldest first')
  .argument('<id>', 'agent workflow id')
  .option('--json', 'print JSON for scripts')
  .action((id: string, options: { json?: boolean }) =>
    exitWith(import('../agents/cli/audit-command').then((m) => m.auditCommand(id, options))),
  );

program
  .command('transcript')
  .description("what a step's model said each round: text, reasoning, tool calls with their results")
  .argument('<id>', 'agent workflow id')
  .argument('<stepId>', 'step id, e.g. s2')
  .option('--json', 'print JSON for scripts')
  .action((id: string, stepId: string, options: { json?: boolean }) =>
    exitWith(import('../agents/cli/transcript-command').then((m) => m.transcriptCommand(id, stepId, options))),
  );

program
  .command('cancel')
  .description('cancel an agent: running steps stop, finished work is kept')
  .argument('<id>', 'agent workflow id')
  .action((id: string) => exitWith(agentCommands().then((m) => m.cancelCommand(id))));

for (const action of ['pause', 'resume'] as const) {
  program
    .command(action)
    .description(
      action === 'pause'
        ? 'pause an agent: no new model or tool call starts until resume; questions stay answerable'
        : 'resume a paused agent where it stopped',
    )
    .argument('<id>', 'agent workflow id')
    .option('--by <name>', 'who (kept on the timeline)')
    .option('--reason <text>', 'why (kept on the timeline)')
    .action((id: string, options: { by?: string; reason?: string }) =>
      exitWith(agentCommands().then((m) => m.holdCommand(action, id, options))),
    );
}

program
  .command('graphs')
  .description('list the agent graphs registered in CAIRN_GRAPHS: name, node count, description')
  .option('--json', 'print JSON for scripts (each graph whole, defaults filled in)')
  .action((options: { json?: boolean }) =>
    exitWith(import('../graphs/cli/graphs-command').then((m) => m.graphsCommand(options))),
  );

program
  .command('definitions')
  .description('list the agent definitions: the built-in cairn and those of CAIRN_AGENTS, with their versions')
  .option('--json', 'print JSON for scripts (each definition as the catalogue lists it)')
  .action((options: { json?: boolean }) =>
    exitWith(import('../definitions/cli/definitions-command').then((m) => m.definitionsCommand(options))),
  );

program
  .command('tools')
  .description("list the tools a worker with this configuration offers (with CAIRN_API_URL, the server's workers')")
  .option('--json', 'print JSON for scripts')
  .action((options: { json?: boolean }) =>
    exitWith(import('../tools/cli/tools-command').then((m) => m.toolsCommand(options))),
  );

const deploy = program
  .command('deploy')
  .description('the Worker Deployment: versions, drainage, promotion (docs/operations.md)');

deploy
  .command('status')
  .description('versions of the deployment: current / ramping, agents pinned to each, drained or not')
  .option('--json', 'print JSON for scripts')
  .action((options: { json?: boolean }) => exitWith(deployCommands().then((m) => m.deployStatusCommand(options))));

deploy
  .command('promote')
  .description('make a version current (new agents start on it; running ones move at safe boundaries)')
  .option('--build-id <id>', "the version's build id; default: this checkout's build")
  .option('--ramp <percent>', 'send only this share of new agents to it (e.g. 10%), keeping the current one')
  .action((options: { buildId?: string; ramp?: string }) =>
    exitWith(deployCommands().then((m) => m.deployPromoteCommand(options))),
  );

program.parseAsync().catch(async (err: unknown) => {
  const [{ cliLog }, { ConfigError }, { EXIT, exitCodeForError }] = await Promise.all([
    import('./cli-log'),
    import('../../config/config'),
    import('./cli-exit'),
  ]);
  cliLog().error(err instanceof Error ? err.message : String(err));
  process.exit(err instanceof ConfigError ? EXIT.usage : exitCodeForError(err));
});
