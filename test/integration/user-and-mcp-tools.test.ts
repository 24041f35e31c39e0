/**
 * Loading tools from outside the core (docs/contracts.md#tools): user modules made with `defineTool`, and
 * MCP servers reached over stdio (a real child process) and streamable HTTP. Loaded tools run
 * through the real registry, exactly as the tool activity runs them.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ConfigError } from '../../config/config';
import type { ToolContext, ToolDefinition } from '../../activities/tools/define-tool';
import { loadUserTools } from '../../activities/tools/load-user-tools';
import { loadMcpTools, type LoadedMcpTools } from '../../activities/tools/mcp/load-mcp-tools';
import { parseMcpServers, type McpServerConfig } from '../../activities/tools/mcp/mcp-config';
import { createToolRegistry } from '../../activities/tools/tool-registry';
import { createEchoServer, ECHO_DESCRIPTIONS } from '../fixtures/mcp/echo-server';
import { waitUntil } from '../../testkit/wait-until';

const ROOT = resolve(__dirname, '../..');
const GREETING = 'test/fixtures/user-tools/greeting-tools.ts';
const BROKEN = 'test/fixtures/user-tools/broken-tools.ts';
const ECHO_SERVER = resolve(__dirname, '../fixtures/mcp/echo-server.ts');
const scratch = mkdtempSync(join(tmpdir(), 'cairn-tools-'));
const context: ToolContext = {
  workspace: scratch,
  ledgerDir: `${scratch}.ledger`,
  idempotencyKey: 'a/s1/c1',
  signal: new AbortController().signal,
};

/** Runs a tool through the registry, as the tool activity does. */
const call = (tools: ToolDefinition[], name: string, args: unknown) =>
  createToolRegistry(tools).run(name, JSON.stringify(args), context);

/** Writes a throwaway JavaScript module and returns its path. */
function jsModule(name: string, source: string): string {
  const file = join(scratch, name);
  writeFileSync(file, source);
  return file;
}

describe('loadUserTools', () => {
  test('loads the tools of a module, each once, and runs them with validated arguments', async () => {
    const tools = await loadUserTools([GREETING], ROOT);
    expect(tools.map((t) => [t.name, t.effect])).toEqual([
      ['greet', 'read'],
      ['farewell', 'write'],
    ]);
    expect(await call(tools, 'greet', { name: 'Ada' })).toEqual({ ok: true, output: 'Hello, Ada!' });
    expect(await call(tools, 'farewell', { name: 'Ada' })).toEqual({ ok: true, output: 'Bye Ada (a/s1/c1)' });
    expect((await call(tools, 'farewell', { name: 'Ada', times: 9 })).ok).toBe(false);
    expect(createToolRegistry(tools).spec('greet')?.parameters).toMatchObject({
      properties: { name: { type: 'string', description: 'Who to greet' } },
    });
  });

  test('a malformed tool fails naming the module, the export and each bad field', async () => {
    const error = await loadUserTools([BROKEN], ROOT).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(Error);
    const { message } = error as Error;
    expect(message).toContain(`user tool module "${BROKEN}", export "brokenTool"`);
    expect(message).toMatch(/name: expected 1-64 letters/);
    expect(message).toMatch(/input: expected a zod schema/);
  });

  test('two tools with one name are refused, even from the same file named twice', async () => {
    await expect(loadUserTools([GREETING, join(ROOT, GREETING)], ROOT)).rejects.toThrow(
      `user tool name "greet" is exported by both "${GREETING}" and "${join(ROOT, GREETING)}"`,
    );
  });

  test('loads plain CommonJS modules whose input is any object with safeParse', async () => {
    const file = jsModule(
      'upper.js',
      `exports.upper = { name: 'upper', description: 'Upper-case text.', effect: 'read',
        input: { safeParse: (v) => ({ success: true, data: v }) },
        parameters: { type: 'object', properties: { text: { type: 'string' } } },
        run: async ({ text }) => text.toUpperCase() };`,
    );
    const tools = await loadUserTools([file], '/');
    expect(await call(tools, 'upper', { text: 'abc' })).toEqual({ ok: true, output: 'ABC' });
  });

  test('a missing module, or one without tools, fails naming it', async () => {
    await expect(loadUserTools(['no/such/tools.ts'], ROOT)).rejects.toThrow(
      'user tool module "no/such/tools.ts" not found',
    );
    const empty = jsModule('empty.js', 'module.exports = { answer: 42 };');
    await expect(loadUserTools([empty], ROOT)).rejects.toThrow(`user tool module "${empty}" exports no tools`);
  });
});

/** tsx's loader by absolute URL, so the child finds it whatever its working folder. */
const TSX = pathToFileURL(require.resolve('tsx')).href;

/** The echo server over stdio, run by this Node with tsx. */
function stdioServer(extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return { name: 'echo', command: process.execPath, args: ['--import', TSX, ECHO_SERVER, '--stdio'], ...extra };
}

/** The tools exactly as the echo server declares them, read through an in-memory client. */
async function declaredTools() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createEchoServer().connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('loadMcpTools', () => {
  let loaded: LoadedMcpTools | undefined;
  afterEach(async () => {
    await loaded?.close();
    loaded = undefined;
  });

  test('a stdio server: prefixed names, intact descriptions and schemas, working calls, clean close', async () => {
    const pidFile = join(scratch, 'echo.pid');
    loaded = await loadMcpTools([stdioServer({ env: { ECHO_PID_FILE: pidFile }, cwd: scratch, write: ['add'] })]);
    const declared = await declaredTools();
    expect(loaded.tools.map((t) => [t.name, t.description, t.parameters, t.effect])).toEqual(
      // Unknown effect is a write: only echo, which the server marks readOnlyHint, reads.
      declared.map((t) => [`echo__${t.name}`, t.description, t.inputSchema, t.name === 'echo' ? 'read' : 'write']),
    );
    expect(declared.map((t) => t.description)).toEqual(Object.values(ECHO_DESCRIPTIONS));
    const { tools } = loaded;
    expect(createToolRegistry(tools).spec('echo__add')?.parameters).toEqual(declared[1]?.inputSchema);
    expect(await call(tools, 'echo__echo', { text: 'héllo' })).toEqual({ ok: true, output: 'héllo' });
    expect(await call(tools, 'echo__add', { a: 2, b: 40 })).toEqual({ ok: true, output: '42' });
    expect(await call(tools, 'echo__picture', {})).toEqual({
      ok: true,
      output: expect.stringMatching(/^a pixel\n\[image image\/png, about \d+ bytes\]$/) as unknown,
    });
    expect(await call(tools, 'echo__fail', { message: 'boom' })).toEqual({
      ok: false,
      output: 'echo__fail failed: boom',
    });
    const invalid = await call(tools, 'echo__add', { a: 'two' });
    expect(invalid).toMatchObject({ ok: false, output: expect.stringContaining('add') as unknown });

    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(isRunning(pid)).toBe(true);
    await loaded.close();
    await waitUntil('the echo server process has ended', () => !isRunning(pid), { timeoutMs: 5_000 });
  });

  test('write: true makes every tool of the server a write tool', async () => {
    loaded = await loadMcpTools([stdioServer({ name: 'w', write: true })]);
    expect(new Set(loaded.tools.map((t) => t.effect))).toEqual(new Set(['write']));
    expect(loaded.tools.map((t) => t.name)).toEqual(['w__echo', 'w__add', 'w__fail', 'w__picture']);
  });

  test('tools of unknown effect write; readOnlyHint, a read list or write: false make them reads; write overrides the hint', async () => {
    const effects = (tools: { name: string; effect: string }[]) => tools.map((t) => [t.name, t.effect]);
    loaded = await loadMcpTools([
      stdioServer({ name: 'plain' }),
      stdioServer({ name: 'listed', read: ['add', 'picture'] }),
      stdioServer({ name: 'allread', write: false }),
      stdioServer({ name: 'forced', write: ['echo'] }),
    ]);
    expect(effects(loaded.tools)).toEqual([
      ['plain__echo', 'read'],
      ['plain__add', 'write'],
      ['plain__fail', 'write'],
      ['plain__picture', 'write'],
      ['listed__echo', 'read'],
      ['listed__add', 'read'],
      ['listed__fail', 'write'],
      ['listed__picture', 'read'],
      ['allread__echo', 'read'],
      ['allread__add', 'read'],
      ['allread__fail', 'read'],
      ['allread__picture', 'read'],
      ['forced__echo', 'write'],
      ['forced__add', 'write'],
      ['forced__fail', 'write'],
      ['forced__picture', 'write'],
    ]);
    // A write tool's catalogue entry needs approval.
    expect(
      createToolRegistry(loaded.tools)
        .list()
        .find((t) => t.name === 'plain__add')?.needsApproval,
    ).toBe(true);
    await expect(loadMcpTools([stdioServer({ name: 'typo', read: ['ech'] })])).rejects.toThrow(
      /"read" names "ech", which the server does not offer/,
    );
  });

  test('a server that cannot start fails loudly, naming it and quoting its stderr', async () => {
    const lines: string[] = [];
    const failing = {
      name: 'broken',
      command: process.execPath,
      args: ['-e', 'console.error("no token"); process.exit(3)'],
    };
    const error = await loadMcpTools([stdioServer(), failing], { onStderrLine: (_s, line) => lines.push(line) }).catch(
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^MCP server "broken" \(.*\) failed to start: .*\n.*stderr.*\n\s+no token$/,
    );
    expect(lines).toEqual(['no token']);
    await expect(loadMcpTools([{ name: 'nothing', command: join(scratch, 'no-such-command') }])).rejects.toThrow(
      /MCP server "nothing" .* failed to start: .*ENOENT/,
    );
  });

  test('a write list naming a tool the server lacks is refused', async () => {
    await expect(loadMcpTools([stdioServer({ write: ['ad'] })])).rejects.toThrow(
      /MCP server "echo" .* failed to start: "write" names "ad", which the server does not offer \(it offers echo, add, fail, picture\)/,
    );
  });

  test('a streamable HTTP server', async () => {
    const http = createServer((req, res) => {
      const server = createEchoServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void server.close());
      server
        .connect(transport)
        .then(() => transport.handleRequest(req, res))
        .catch(() => res.writeHead(500).end());
    });
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    try {
      const { port } = http.address() as AddressInfo;
      loaded = await loadMcpTools([{ name: 'web', url: `http://127.0.0.1:${port}/mcp` }]);
      expect(loaded.tools.map((t) => t.name)).toEqual(['web__echo', 'web__add', 'web__fail', 'web__picture']);
      expect(await call(loaded.tools, 'web__add', { a: 1, b: 2 })).toEqual({ ok: true, output: '3' });
      await loaded.close();
    } finally {
      http.closeAllConnections();
      await new Promise((done) => http.close(done));
    }
  });
});

describe('parseMcpServers', () => {
  const problems = (value: unknown): string[] => {
    try {
      parseMcpServers(typeof value === 'string' ? value : JSON.stringify(value));
    } catch (err) {
      if (err instanceof ConfigError) return err.lines;
      throw err;
    }
    throw new Error('expected a ConfigError');
  };

  test('accepts a valid list; unset or blank means no servers', () => {
    expect(parseMcpServers(undefined)).toEqual([]);
    expect(parseMcpServers('  ')).toEqual([]);
    const servers = [
      stdioServer({ env: { A: 'b' }, write: ['add'] }),
      { name: 'web-1', url: 'https://mcp.example/mcp' },
    ];
    expect(parseMcpServers(JSON.stringify(servers))).toEqual(servers);
  });

  test('reports one line per problem, with its path', () => {
    expect(problems('[{')[0]).toMatch(/^CAIRN_MCP_SERVERS: not valid JSON/);
    expect(problems({ name: 'x' })).toEqual(['CAIRN_MCP_SERVERS: expected a JSON array of servers']);
    expect(
      problems([
        { name: 'bad name', command: 'x' },
        { name: 'a' },
        { name: 'b', command: 'x', url: 'http://h/' },
        { name: 'c', url: 'ftp://h/', args: ['1'] },
        { name: 'd', command: 'x', write: 'yes', comand: 'y' },
        { name: 'd', command: 'x', env: { A: 1 } },
      ]),
    ).toEqual([
      'CAIRN_MCP_SERVERS[0].name: expected 1-20 letters, digits, "_" or "-"',
      'CAIRN_MCP_SERVERS[1]: expected exactly one of "command" (stdio) or "url" (HTTP)',
      'CAIRN_MCP_SERVERS[2]: expected exactly one of "command" (stdio) or "url" (HTTP)',
      'CAIRN_MCP_SERVERS[3].url: expected an http(s) URL',
      'CAIRN_MCP_SERVERS[3].args: only applies to a "command" server',
      'CAIRN_MCP_SERVERS[4].write: expected true, false or a list of tool names',
      'CAIRN_MCP_SERVERS[4]: unknown field comand',
      'CAIRN_MCP_SERVERS[5].env.A: expected a string',
    ]);
    expect(problems([stdioServer(), stdioServer()])).toEqual([
      'CAIRN_MCP_SERVERS[1].name: "echo" is used by another server',
    ]);
  });
});
