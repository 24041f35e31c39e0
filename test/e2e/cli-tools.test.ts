/**
 * `cairn tools` through the real bin script: built-ins, a user tool module and an MCP server,
 * with effects and approvals; a bad module stops it with a message naming the module.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(__dirname, '..', '..');
const ECHO_SERVER = join(ROOT, 'test', 'fixtures', 'mcp', 'echo-server.ts');

function cairn(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'cairn.js'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('lists built-ins, user tools and MCP tools with their effects', () => {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const servers = [
    { name: 'echo', command: process.execPath, args: ['--import', tsx, ECHO_SERVER, '--stdio'], write: ['add'] },
  ];
  const { code, stdout, stderr } = cairn(['tools', '--json'], {
    CAIRN_TOOLS: 'test/fixtures/user-tools/greeting-tools.ts',
    CAIRN_MCP_SERVERS: JSON.stringify(servers),
    CAIRN_AUTO_APPROVE: 'farewell',
  });
  expect(stderr.replace(/\[mcp echo\].*\n/g, '')).toBe('');
  expect(code).toBe(0);
  const tools = JSON.parse(stdout) as { name: string; effect: string; needsApproval: boolean }[];
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  expect(Object.keys(byName)).toEqual(
    expect.arrayContaining([
      'read_file',
      'write_file',
      'list_files',
      'http_fetch',
      'model',
      'sub_agent',
      'greet',
      'farewell',
      'echo__echo',
      'echo__add',
    ]),
  );
  expect(byName.write_file).toMatchObject({ effect: 'write', needsApproval: true });
  expect(byName.farewell).toMatchObject({ effect: 'write', needsApproval: false });
  expect(byName.echo__add).toMatchObject({ effect: 'write', needsApproval: true });
  expect(byName.echo__echo).toMatchObject({ effect: 'read', needsApproval: false });
});

test('a broken tool module stops it with a message naming the module', () => {
  const { code, stderr } = cairn(['tools'], { CAIRN_TOOLS: 'test/fixtures/user-tools/broken-tools.ts' });
  expect(code).toBe(1);
  expect(stderr).toContain('test/fixtures/user-tools/broken-tools.ts');
});
