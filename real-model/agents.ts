/**
 * The five kinds of agent the real-model suite runs, and the workspace they work in. The tasks
 * are small and plain; the model is weak, so what is judged is how Cairn keeps control, never
 * what the model answers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentInput } from '../workflows/model/agent/agent-input';
import type { AgentRun } from './stand-in';
import { loopGuardNotes } from './loop-guard-notes';

/** One agent of the suite. */
export interface AgentCase {
  /** Short name: the table's first column and the agent id's stem. */
  name: string;
  input: AgentInput;
  /**
   * For an agent that is there to make one mechanism happen: whether this run made it happen,
   * and how many runs it may take. A 270M model sampling at its default temperature writes a
   * usable call in its first reply about three times in four (measured on the write-approval
   * prompt: 6 of 8); so the agent is started again, each run judged like any other, until the
   * mechanism is seen or its attempts are spent.
   */
  exercises?: { done: (run: AgentRun) => boolean; attempts: number };
}

/** Files the agents read and list. */
export const WORKSPACE_FILES: Record<string, string> = {
  'notes.txt': 'Meeting notes: the release moves to Friday. Alice owns the changelog.\n',
  'alpha.txt': 'Alpha is a small service that stores user preferences in a key-value store.\n',
  'beta.txt': 'Beta sends a weekly email digest to every user who opted in.\n',
  'guide/start.md': '# Guide\n\nStart with notes.txt, then alpha.txt and beta.txt.\n',
};

/** Writes the workspace's files under `dir`. */
export function seedWorkspace(dir: string): void {
  for (const [path, text] of Object.entries(WORKSPACE_FILES)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * Rounds a step may take: a 270M model rarely calls finish_step, and each round costs up to
 * half a minute on two CPU cores, so a step ends (STEP_ROUNDS_EXHAUSTED) within the time limit.
 */
const STEP_ROUNDS = 5;

/** The plan the parallel-plan agent is shown: two steps with no dependencies, then one after both. */
const PARALLEL_PLAN = {
  task: 'Summarise alpha.txt and beta.txt',
  language: 'en',
  steps: [
    {
      id: 's1',
      title: 'Summarise alpha.txt',
      description: 'Read alpha.txt; summarise it in one sentence.',
      depends_on: [],
    },
    {
      id: 's2',
      title: 'Summarise beta.txt',
      description: 'Read beta.txt; summarise it in one sentence.',
      depends_on: [],
    },
    { id: 's3', title: 'Combine', description: 'Join the two summaries.', depends_on: ['s1', 's2'] },
  ],
  replan: [],
};

/** The plan the list-read agent is shown: one step, every field the reply format requires. */
const LIST_READ_PLAN = {
  task: 'Find the file to start with',
  language: 'en',
  steps: [{ id: 's1', title: 'List and read', description: 'List the files and read guide/start.md.', depends_on: [] }],
  replan: [],
};

/** The five kinds: ReAct; plan with parallel steps; write with approval; ask + plan check; list + read. */
export const AGENT_CASES: AgentCase[] = [
  {
    name: 'react',
    input: {
      // Both calls spelled out (see write-approval): a tool call that surely runs, and the
      // finish_step that ends the step — the model rarely stops on its own, so without it the step
      // runs out of rounds and no agent of the run completes. The model tends to repeat the calls
      // it was shown; the read is shown twice and the identical-call limit is 1, so the second
      // read is refused: a loop guard acts on every run that copies the calls (the verdict needs one).
      task:
        'Read the file notes.txt and say in one sentence who owns the changelog. Reply with only these three calls:\n' +
        '<tool_call>\n{"name": "read_file", "arguments": {"path": "notes.txt"}}\n</tool_call>\n' +
        '<tool_call>\n{"name": "read_file", "arguments": {"path": "notes.txt"}}\n</tool_call>\n' +
        '<tool_call>\n{"name": "finish_step", "arguments": {"result": "Alice owns the changelog."}}\n</tool_call>',
      mode: { plan: false },
      tools: ['read_file'],
      limits: { maxStepRounds: STEP_ROUNDS, maxIdenticalCalls: 1 },
    },
    exercises: { done: (run) => run.outcome === 'completed' && loopGuardNotes(run).length > 0, attempts: 2 },
  },
  {
    name: 'parallel-plan',
    input: {
      // The plan spelled out (see write-approval): the model, held to the plan's JSON schema by
      // the server, mostly copies it — a planner reply that parses, where a free-form plan of
      // this model is cut at its token limit or rejected, and ends repaired.
      task:
        'Summarise alpha.txt and beta.txt in one sentence each: two independent steps that run in parallel ' +
        '(one per file, no dependencies), then a third step that combines both summaries. ' +
        `Answer with only this plan:\n${JSON.stringify(PARALLEL_PLAN)}`,
      tools: ['read_file'],
      limits: { maxParallelSteps: 2, maxStepRounds: STEP_ROUNDS },
    },
  },
  {
    name: 'write-approval',
    input: {
      // The call spelled out in the template's own tool-call format: a 270M base model mostly
      // repeats its prompt, so this is how it is made to ask for a write (and so an approval).
      task:
        'Write a file named hello.txt whose content is exactly: Hello from Cairn. Reply with only this call:\n' +
        '<tool_call>\n{"name": "write_file", "arguments": {"path": "hello.txt", "content": "Hello from Cairn."}}\n</tool_call>',
      mode: { plan: false },
      tools: ['write_file'],
      limits: { maxStepRounds: STEP_ROUNDS },
    },
    exercises: { done: (run) => run.approvals.length > 0 && (run.answered['tool.approval'] ?? 0) > 0, attempts: 3 },
  },
  {
    name: 'ask-plan-check',
    input: {
      task: 'Write a short welcome note for a new team member. Ask me their name first.',
      mode: { plan: true, ask: true, confirmPlan: true },
      tools: ['read_file'],
      limits: { maxStepRounds: STEP_ROUNDS },
    },
  },
  {
    name: 'list-read',
    input: {
      // A one-step plan spelled out, with nothing in it to get wrong (see parallel-plan: the model
      // copied that plan but made its first step depend on itself, and the reply was rejected).
      task:
        'List the files in the workspace, read guide/start.md, and say which file it says to start with. ' +
        `Answer with only this plan:\n${JSON.stringify(LIST_READ_PLAN)}`,
      tools: ['list_files', 'read_file'],
      limits: { maxStepRounds: STEP_ROUNDS },
    },
  },
];

/** Whether the agent plans (and so must get a valid plan and run its steps). */
export function plans(agent: AgentCase): boolean {
  return agent.input.mode?.plan ?? true;
}
