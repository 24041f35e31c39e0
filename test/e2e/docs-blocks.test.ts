/**
 * Docs as tests (issue 47): every block the docs mark ` ```sh run ` (or `js run`, `python run`)
 * runs as written against `npm start`'s default — the offline demo model and the embedded
 * Temporal dev server, with no variables but ports — and must exit 0 without an HTTP error body
 * (`"error": {`) in its output. The docs say `localhost:3000`; the runner puts npm start on free
 * ports, so that address (and nothing else) is rewritten to the one npm start listens on.
 * Python blocks run with the `openai` package of `.tools/venv`; without it each says why it did
 * not run. Which blocks are marked, and that every other says why not, is
 * test/unit/doc-blocks.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../../testkit/wait-until';
import { ROOT, docBlocks, type DocBlock } from '../harness/doc-blocks';
import { freePorts, killGroup, leftBehind, npmStart, portsEnv, type NpmStart } from '../harness/npm-start';

jest.setTimeout(180_000);

const RUN = docBlocks().filter((b) => b.mark === 'run');
/** How long one block may take: each is chosen to finish within seconds on the demo model. */
const BLOCK_TIMEOUT_MS = 60_000;
const VENV_PYTHON = join(ROOT, '.tools', 'venv', 'bin', 'python');

let dir = '';
let start: NpmStart | undefined;
let ports: Awaited<ReturnType<typeof freePorts>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-docs-blocks-'));
  ports = await freePorts();
  start = npmStart(dir, portsEnv(ports));
  const started = start;
  await waitUntil('npm start is running', () => started.output().includes('Cairn is running.'), {
    timeoutMs: 150_000,
  });
});

afterAll(async () => {
  if (start) {
    const stopping = start;
    if (stopping.child.pid !== undefined) process.kill(-stopping.child.pid, 'SIGINT');
    await waitUntil('npm start has ended', () => leftBehind(stopping).length === 0, { timeoutMs: 30_000 }).catch(() =>
      killGroup(stopping),
    );
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The block's text with the docs' address swapped for npm start's. */
const onPorts = (text: string) => text.replaceAll('localhost:3000', `localhost:${ports.http}`);

/** Why a python block cannot run here, or undefined when it can. */
function pythonMissing(): string | undefined {
  if (!existsSync(VENV_PYTHON)) return `${VENV_PYTHON} does not exist (scripts make .tools/venv)`;
  const probe = spawnSync(VENV_PYTHON, ['-c', 'import openai'], { encoding: 'utf8' });
  return probe.status === 0
    ? undefined
    : `the openai package is not installed in .tools/venv (bash scripts/ensure-openai-python.sh)`;
}

/** The command that runs a block of `language`, reading the block on stdin. */
function runner(language: string): [string, string[]] {
  if (language === 'sh') return ['bash', ['-eo', 'pipefail', '-s']];
  if (language === 'js') return [process.execPath, ['--input-type=module']];
  if (language === 'python') return [VENV_PYTHON, ['-']];
  throw new Error(`no runner for ${language} blocks`);
}

/** Runs one block in the repository, as a reader would paste it. */
function run(block: DocBlock): { status: number | null; output: string } {
  const [command, args] = runner(block.language);
  const result = spawnSync(command, args, {
    cwd: ROOT,
    input: onPorts(block.text),
    encoding: 'utf8',
    timeout: BLOCK_TIMEOUT_MS,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...portsEnv(ports),
    },
  });
  return {
    status: result.status,
    output: `${result.stdout}${result.stderr}${result.error ? String(result.error) : ''}`,
  };
}

test('the docs mark blocks to run, and the runner knows each one’s language', () => {
  expect(RUN.length).toBeGreaterThanOrEqual(3);
  for (const block of RUN) expect(() => runner(block.language)).not.toThrow();
});

test.each(RUN.map((block) => [block.where, block] as const))('%s runs against npm start', (where, block) => {
  const missing = block.language === 'python' ? pythonMissing() : undefined;
  if (missing) {
    // CI installs the client (scripts/ensure-openai-python.sh) and demands the block runs.
    if (process.env.CAIRN_DOCS_PYTHON === 'required') throw new Error(`docs block ${where} cannot run: ${missing}`);
    // Not silent: the run's output says which block did not run and why.
    process.stdout.write(`docs block ${where} not run: ${missing}\n`);
    return;
  }
  const { status, output } = run(block);
  // The output is shown only when the block failed.
  expect({ where, status, output: status === 0 ? '' : output }).toEqual({ where, status: 0, output: '' });
  expect(output).not.toMatch(/"error"\s*:\s*\{/);
  expect(output.trim()).not.toBe('');
});
