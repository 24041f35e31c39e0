/**
 * The docs say what the code does: the tables of docs/contracts.md (error codes and their HTTP
 * statuses, messages, search attributes, interaction kinds, HTTP routes), the step transition
 * table of docs/architecture/steps.md and the folder table of docs/architecture/overview.md are
 * read back and compared with the definitions the code uses and the folders on disk, so a change
 * to one that forgets the other fails here.
 */
import * as threadContract from '../../workflows/contract/thread-contract';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { createApp } from '../../client/http/create-app';
import { sendError, type ApiErrorCode } from '../../client/http/errors';
import { ERROR_CODES } from '../../workflows/base/error-codes';
import { answerSchemas } from '../../workflows/model/interactions/interaction-schema';
import * as messages from '../../workflows/contract/messages';
import * as liveMessages from '../../workflows/contract/live-messages';
import * as stepTranscript from '../../workflows/contract/step-transcript';
import { STEP_TRANSITIONS } from '../../workflows/model/plan/step-transitions';
import * as searchAttributes from '../../workflows/contract/search-attributes';
import { AGENT_EVENT_TYPES, AGENT_PHASES } from '../../workflows/model/state/agent-state-schema';
import { STEP_STATUSES } from '../../workflows/model/state/step-run-schema';
import { unusedAgents, unusedThreads } from '../harness/config-errors';

const ROOT = join(__dirname, '..', '..');
const contracts = readFileSync(join(ROOT, 'docs', 'contracts.md'), 'utf8');
const steps = readFileSync(join(ROOT, 'docs', 'architecture', 'steps.md'), 'utf8');
const overview = readFileSync(join(ROOT, 'docs', 'architecture', 'overview.md'), 'utf8');

/** The text of `## <title>` up to the next `## ` heading. */
function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`no section "## ${title}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** A table's header row: no cell is code. */
const isHeader = (cells: string[]): boolean => cells.every((cell) => !cell.includes('`'));

/** The body rows of every Markdown table in `text`, as cells (trimmed, `\|` read as `|`). */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replace(/\\\|/g, '|')),
    )
    .filter((cells) => !isHeader(cells));
}

/** The names in backticks in `text`: "`a`, `b`" → ['a', 'b']. */
const codeNames = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map(([, name = '']) => name);

/** The first code name of a cell. */
const firstName = (cell: string | undefined): string => codeNames(cell ?? '')[0] ?? '';

test('error codes: the list of error-codes.ts, in order, each with the HTTP status the API answers with', async () => {
  const rows = tableRows(section(contracts, 'Error codes'));
  expect(rows.map((cells) => firstName(cells[0]))).toEqual([...ERROR_CODES]);
  const documented = rows.flatMap(([code, , status]) => (status === '—' ? [] : [[firstName(code), Number(status)]]));
  expect(documented.length).toBeGreaterThan(5);
  const app = new Hono();
  // Only codes the API answers with have a status in the table; sendError knows each one's.
  app.get('/:code', (c) => sendError(c, c.req.param('code') as ApiErrorCode, 'docs'));
  const served = await Promise.all(
    documented.map(async ([code]) => [code, (await app.request(`/${String(code)}`)).status]),
  );
  expect(served).toEqual(documented);
});

test('messages: every signal, update and query of messages.ts, live/live-messages.ts, the step transcript and threads, with its kind', () => {
  const values: unknown[] = [
    ...Object.values(messages),
    ...Object.values(liveMessages),
    ...Object.values(stepTranscript),
    ...Object.values(threadContract),
  ];
  const defined = values.flatMap((value) =>
    typeof value === 'object' && value !== null && 'type' in value && 'name' in value
      ? [`${String(value.type)} ${String(value.name)}`]
      : [],
  );
  const documented = tableRows(section(contracts, 'Messages')).map(([kind = '', name]) => `${kind} ${firstName(name)}`);
  expect(documented.sort()).toEqual(defined.sort());
});

test('search attributes: every key of search-attributes.ts with its type, and the phases AgentPhase takes', () => {
  const typeName: Record<string, string> = { KEYWORD: 'Keyword', BOOL: 'Bool', INT: 'Int', DOUBLE: 'Double' };
  const defined = Object.values(searchAttributes).map((key) => `${key.name} ${typeName[key.type] ?? key.type}`);
  const rows = tableRows(section(contracts, 'Search attributes and what the Temporal UI shows'));
  expect(rows.map(([name, type]) => `${firstName(name)} ${type ?? ''}`).sort()).toEqual(defined.sort());
  const phaseRow = rows.find(([name]) => firstName(name) === 'AgentPhase');
  expect(codeNames(phaseRow?.[2] ?? '')).toEqual([...AGENT_PHASES]);
});

test('interactions: one row per kind the answer schemas know', () => {
  const rows = tableRows(section(contracts, 'Interactions and answers'));
  expect(rows.map(([kind]) => firstName(kind))).toEqual(Object.keys(answerSchemas));
});

test('agent state: every phase, step status and timeline event type is named', () => {
  const stateBlock = section(contracts, 'Agent state');
  // Event types are named in the prose after the example (fenced blocks hold no code names).
  const names = new Set(codeNames(stateBlock.replace(/```[\s\S]*?```/g, '')));
  const missing = [
    ...AGENT_EVENT_TYPES.filter((type) => !names.has(type)),
    ...[...AGENT_PHASES, ...STEP_STATUSES].filter((name) => !stateBlock.includes(name)),
  ];
  expect(missing).toEqual([]);
});

test('HTTP API: the route table lists exactly the routes the app serves under /api, /v1, /codec and /healthz', () => {
  const agents = unusedAgents('the docs test calls no agent route');
  const threads = unusedThreads('the docs test calls no thread route');
  const app = createApp({ version: 'docs', temporalHealthy: () => Promise.resolve(true), agents, threads });
  const served = new Set(
    app.routes
      .filter(
        (r) =>
          r.method !== 'ALL' &&
          (['/api/', '/v1/', '/codec/'].some((prefix) => r.path.startsWith(prefix)) || r.path === '/healthz'),
      )
      // A parameter's own pattern (`:path{.+}`, a path across folders) is left out of its name.
      .map((r) => `${r.method} ${r.path.replace(/\{[^/]*\}/g, '')}`),
  );
  const documented = tableRows(section(contracts, 'HTTP API')).map(([route]) => firstName(route));
  expect(documented.sort()).toEqual([...served].sort());
});

test('architecture/steps.md: the step transition table is STEP_TRANSITIONS', () => {
  const rows = tableRows(section(steps, 'Step statuses'));
  const documented = Object.fromEntries(rows.map(([from, to]) => [firstName(from), codeNames(to ?? '')]));
  expect(documented).toEqual(STEP_TRANSITIONS);
});

describe('the folder table of docs/architecture/overview.md', () => {
  // The folder each row of the table links in its first cell (from docs/architecture/, two levels down).
  const folders = section(overview, 'Folders')
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .flatMap((line) =>
      [...(line.split('|')[1] ?? '').matchAll(/\]\(\.\.\/\.\.\/([\w/-]+?)\/?\)/g)].map((m) => m[1] ?? ''),
    );
  const ignored = new Set(['node_modules', 'dist', 'coverage']);
  const onDisk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !ignored.has(e.name))
      .map((e) => (dir ? `${dir}/${e.name}` : e.name));

  test('names every top-level folder and every folder of workflows/', () => {
    const missing = [...onDisk(''), ...onDisk('workflows')].filter((f) => !folders.includes(f));
    expect(missing).toEqual([]);
  });

  test('names no folder that does not exist', () => {
    expect(folders.filter((f) => !existsSync(join(ROOT, f)))).toEqual([]);
  });
});
