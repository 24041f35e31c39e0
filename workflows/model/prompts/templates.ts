/**
 * Every built-in prompt Cairn sends to the model, as a named template with `{{variable}}`
 * placeholders and the variables it declares. A template is one fixed block of words; the
 * optional paragraphs and the lists (operator instructions, dependencies, results) are their
 * own templates, rendered and joined with blank lines by the prompt functions, so a rendered
 * built-in is exactly the prompt Cairn has always sent (kept histories replay unchanged).
 */

/** A named prompt template. Every declared variable is required: its text must use each one. */
export interface PromptTemplate {
  /** The template's name, e.g. `planner.system`. */
  readonly name: string;
  /** The words, with `{{variable}}` placeholders. */
  readonly text: string;
  /** The variables the text uses, each exactly once or more. */
  readonly variables: readonly string[];
}

const template = (name: string, variables: readonly string[], ...paragraphs: string[]): PromptTemplate => ({
  name,
  variables,
  text: paragraphs.join('\n\n'),
});

/** The built-in templates, by name. */
export const PROMPT_TEMPLATES = {
  'planner.system': template(
    'planner.system',
    ['ask_rule', 'tools'],
    'You are the planner of an agent. Break the user task into a small plan of steps that an executor will carry out with tools.',
    'Steps run in parallel unless one depends on another; list in depends_on only the steps whose results a step really needs.',
    'Answer with ONLY a JSON object of this shape:',
    '{"task": string, "language": the language of the task (e.g. "en"), "steps": [{"id": short id like "s1", "title": string, "description": what to do, "depends_on": [ids], "done_when": how to tell the step is done}], "replan": [ids of steps after which the rest of the plan should be reconsidered]}',
    '{{ask_rule}}',
    'Tools the executor can use:\n{{tools}}',
  ),
  'planner.can_ask': template(
    'planner.can_ask',
    [],
    'If the task is ambiguous in a way that changes the plan, call ask_user first (a question, a choice, or a form). Ask only what you must.',
  ),
  'planner.cannot_ask': template('planner.cannot_ask', [], 'Do not ask questions: plan with what you know.'),
  'planner.task_files': template('planner.task_files', ['task', 'files'], '{{task}}', 'Files to consider:\n{{files}}'),
  'planner.reusable': template(
    'planner.reusable',
    ['steps'],
    'Steps finished earlier in this conversation, which this plan may adopt instead of doing them again:\n{{steps}}',
    'To adopt one, list it in the plan\'s "reuse": [{"agentId": string, "stepId": string}]. An adopted step counts as completed with its result, under its stepId: do not add a step that redoes it; new steps may depend on it by that id. Mentioning a result in a description is not adopting it.',
  ),
  'planner.reusable_step': template(
    'planner.reusable_step',
    ['agent_id', 'step_id', 'title', 'result'],
    '- {"agentId": "{{agent_id}}", "stepId": "{{step_id}}"} {{title}}: {{result}}',
  ),
  'operator.instructions': template(
    'operator.instructions',
    ['instructions'],
    'Instructions from the operator:\n{{instructions}}',
  ),
  'step.system': template(
    'step.system',
    ['tools'],
    'You are the executor of one step of a larger plan. Use the tools to do the step, then call finish_step with the result.',
    'Tools:\n{{tools}}',
  ),
  'node.system': template(
    'node.system',
    ['node_prompt', 'tools'],
    '{{node_prompt}}',
    'When done, call finish_step with the result.',
    'Tools:\n{{tools}}',
  ),
  'node.system_output': template(
    'node.system_output',
    ['node_prompt', 'tools'],
    '{{node_prompt}}',
    'When done, call finish_step with the result and the structured output its schema asks for.',
    'Tools:\n{{tools}}',
  ),
  'step.can_ask': template('step.can_ask', [], 'Call ask_user only when you cannot continue without the user.'),
  'step.task': template(
    'step.task',
    ['task', 'step_id', 'step_title', 'step_description'],
    'Overall task: {{task}}',
    'Your step ({{step_id}}): {{step_title}}\n{{step_description}}',
  ),
  'step.done_when': template(
    'step.done_when',
    ['done_when'],
    "Done when: {{done_when}}\nWhen you finish, say in finish_step's goal_check how this holds.",
  ),
  'step.files': template('step.files', ['files'], 'Files given with the task (paths for read_file):\n{{files}}'),
  'step.dependencies': template('step.dependencies', [], 'Results of the steps this one depends on:'),
  'step.dependency': template('step.dependency', ['id', 'title', 'result'], '## {{id}} · {{title}}\n{{result}}'),
  'summary.prompt': template(
    'summary.prompt',
    ['language', 'task'],
    'Write the final answer to the task below for the user, in the language "{{language}}", from the step results. Be complete but concise; use Markdown.',
    'Task: {{task}}',
  ),
  'summary.result': template(
    'summary.result',
    ['id', 'title', 'status', 'result'],
    '## {{id}} · {{title}} ({{status}})\n{{result}}',
  ),
  'router.system': template(
    'router.system',
    [],
    [
      'You are the router of an agent graph. A node has finished; decide where its work goes next.',
      'Each candidate is a node id with a condition. Choose the first candidate, in the order given, whose condition holds for the result.',
      'Answer with a JSON object only: {"to": "<node id>" | null, "reason": "<one sentence>"}. Use null when no condition holds.',
    ].join('\n'),
  ),
  'thread.router.system': template(
    'thread.router.system',
    [],
    [
      'You read one message of a conversation with an agent and decide how it is handled.',
      '"chat": a question, remark or request answered in words from what is known (no tools, no files, no web).',
      '"task": work to carry out with tools — reading or writing files, fetching pages, several steps.',
      'Answer with a JSON object only: {"kind": "chat" | "task", "reason": "<one sentence>"}.',
    ].join('\n'),
  ),
  'thread.chat.system': template(
    'thread.chat.system',
    [],
    'You are a helpful assistant in a conversation. Earlier messages and the results of tasks run in it are given; answer the last message directly and briefly.',
  ),
  'thread.chat.summary': template(
    'thread.chat.summary',
    ['summary'],
    'Summary of the older part of the conversation (its messages are no longer given):\n{{summary}}',
  ),
  'thread.compress.system': template(
    'thread.compress.system',
    [],
    'You keep the memory of a long conversation between a user and an agent. Merge the summary so far (if any) and the turns given into one new summary that later turns can rely on: what the user asked and decided, the tasks run and their key results (names, numbers, files), and what is still open.',
    'Write plain text, at most 300 words, no preamble.',
  ),
  'thread.compress.turns': template(
    'thread.compress.turns',
    ['summary', 'turns'],
    'Summary so far:\n{{summary}}',
    'Turns to add:\n{{turns}}',
  ),
  'thread.title.system': template(
    'thread.title.system',
    [],
    'Write a title for the conversation that starts with the message given: at most 8 words, in the language of the message. Answer with the title only.',
  ),
} as const satisfies Record<string, PromptTemplate>;

/** The name of a built-in template. */
export type PromptName = keyof typeof PROMPT_TEMPLATES;

/**
 * A `{{variable}}` placeholder: lower-case letters, digits and underscores. A new expression
 * per use: a global one keeps its position between uses, and this module is shared (frozen)
 * between workflows.
 */
const placeholder = (): RegExp => /\{\{([a-z0-9_]+)\}\}/g;

/** The variables a text uses, in order of first use. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(placeholder())].map((m) => m[1] ?? ''))];
}

/** Texts that replace built-in templates (an operator's overrides, already checked), by name. */
export type PromptTexts = Readonly<Partial<Record<PromptName, string>>>;

/**
 * Renders a template — the override in `texts` when there is one, else the built-in — with its
 * variables' values. One pass: a value that itself holds `{{…}}` (a task may) is inserted as it
 * is, never rendered again.
 */
export function render(name: PromptName, values: Readonly<Record<string, string>> = {}, texts?: PromptTexts): string {
  const text = texts?.[name] ?? PROMPT_TEMPLATES[name].text;
  return text.replace(placeholder(), (whole, variable: string) => values[variable] ?? whole);
}
