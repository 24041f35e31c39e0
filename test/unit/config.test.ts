/** The configuration schema: defaults, every variable read, and one clear line per bad value. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TASK_QUEUE, DEFAULT_TEMPORAL_ADDRESS, loadConfig } from '../../config/config';
import { configProblems, errorLines } from '../harness/config-errors';
import { DEFAULT_STREAM_LIMITS } from '../../config/stream-limits';
import { DEFAULT_UPLOAD_LIMITS } from '../../config/upload-config';
import { llmTaskQueue } from '../../workflows/base/llm-task-queue';

test('an empty environment gives the embedded defaults and the demo model', () => {
  const config = loadConfig({}, '/srv/cairn');
  expect(config.temporal).toEqual({
    address: DEFAULT_TEMPORAL_ADDRESS,
    addressConfigured: false,
    namespace: 'default',
    connection: { address: DEFAULT_TEMPORAL_ADDRESS },
  });
  expect(config.taskQueue).toBe(DEFAULT_TASK_QUEUE);
  expect(config.llm.demo).toBe(true);
  expect(config.workspace).toBe('/srv/cairn/.data/workspace');
  expect(config.ledgerDir).toBe('/srv/cairn/.data/workspace.ledger');
  expect(config.http).toEqual({
    host: '127.0.0.1',
    port: 3000,
    apiToken: undefined,
    streams: DEFAULT_STREAM_LIMITS,
    uploads: DEFAULT_UPLOAD_LIMITS,
  });
});

test('every variable is read', () => {
  const config = loadConfig({
    TEMPORAL_ADDRESS: 'temporal.example.com:7233',
    TEMPORAL_NAMESPACE: 'agents',
    TEMPORAL_API_KEY: 'cloud-key',
    CAIRN_TASK_QUEUE: 'agents-q',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: 'http://localhost:11434/v1',
    CAIRN_MODEL: 'llama3.1',
    CAIRN_LLM_TIMEOUT_MS: '30000',
    CAIRN_LLM_RATE_LIMIT: '2.5',
    CAIRN_LLM_CONCURRENCY: '4',
    CAIRN_LLM_ENDPOINTS: '[{ "name": "local", "baseUrl": "http://127.0.0.1:8080/v1", "model": "qwen" }]',
    CAIRN_WORKER_CACHED_WORKFLOWS: '500',
    CAIRN_WORKER_WORKFLOW_THREADS: '2',
    CAIRN_LLM_STREAM: 'off',
    CAIRN_WORKSPACE: '/data/ws',
    CAIRN_LEDGER_DIR: '/data/ledger',
    CAIRN_WORKSPACE_RETENTION_DAYS: '30',
    CAIRN_THREAD_COMPRESS_CHARS: '20000',
    CAIRN_FETCH_ALLOW: 'loopback, private',
    CAIRN_TOOLS: './tools/a.ts,./tools/b.ts',
    CAIRN_MCP_SERVERS: '[]',
    CAIRN_AUTO_APPROVE: 'write_file',
    CAIRN_GRAPHS: './graphs/index.ts',
    CAIRN_AGENTS: './agents/index.ts',
    CAIRN_HTTP_PORT: '8080',
    CAIRN_HTTP_HOST: '0.0.0.0',
    CAIRN_API_TOKEN: 'a-long-enough-token',
    CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL: '3',
    CAIRN_HTTP_MAX_STREAMS: '30',
    CAIRN_UPLOAD_MAX_FILE_BYTES: '1000000',
    CAIRN_UPLOAD_MAX_REQUEST_BYTES: '4000000',
    CAIRN_UPLOAD_MAX_FILES: '5',
    CAIRN_UPLOAD_TYPES: 'pdf,csv',
    CAIRN_METRICS_ADDRESS: '0.0.0.0:9464',
    CAIRN_METRICS_ALLOWED_HOSTS: 'scraper.internal',
    CAIRN_METRICS_POLL_MS: '5000',
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
    CAIRN_DEPLOYMENT_NAME: 'cairn-eu',
    CAIRN_BUILD_ID: '2.0.0',
  });
  expect(config).toEqual({
    temporal: {
      address: 'temporal.example.com:7233',
      addressConfigured: true,
      namespace: 'agents',
      apiKey: 'cloud-key',
      // An API key turns TLS on, as the SDK defines.
      connection: { address: 'temporal.example.com:7233', apiKey: 'cloud-key', tls: true },
    },
    taskQueue: 'agents-q',
    llm: {
      demo: false,
      baseUrl: 'http://localhost:11434/v1',
      apiKey: 'sk-test',
      model: 'llama3.1',
      timeoutMs: 30000,
      ratePerSecond: 2.5,
      concurrency: 4,
      models: {},
      stream: false,
      endpoints: [{ name: 'local', baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen' }],
    },
    cachedWorkflows: 500,
    workflowThreads: 2,
    workspace: '/data/ws',
    versioning: { enabled: true, deploymentName: 'cairn-eu', buildId: '2.0.0' },
    ledgerDir: '/data/ledger',
    workspaceRetentionDays: 30,
    threads: { compressAtChars: 20_000 },
    tools: {
      fetchAllow: ['loopback', 'private'],
      modules: ['./tools/a.ts', './tools/b.ts'],
      mcpServers: '[]',
      autoApprove: ['write_file'],
    },
    graphs: { module: './graphs/index.ts' },
    definitions: { module: './agents/index.ts' },
    http: {
      host: '0.0.0.0',
      port: 8080,
      apiToken: 'a-long-enough-token',
      allowedHosts: undefined,
      streams: { perPrincipal: 3, total: 30 },
      uploads: { maxFileBytes: 1_000_000, maxRequestBytes: 4_000_000, maxFiles: 5, types: ['pdf', 'csv'] },
    },
    telemetry: {
      metrics: { address: '0.0.0.0:9464', pollMs: 5000, allowedHosts: ['scraper.internal'] },
      traces: { exporters: ['otlp'] },
    },
    auth: { mode: 'tokens', apiToken: 'a-long-enough-token' },
    prices: {},
    prompts: {},
    payloads: { compression: true },
    // No embedded server runs with an address configured; its settings keep their defaults.
    embedded: {
      ip: '127.0.0.1',
      port: 7233,
      uiPort: 8233,
      dbFile: join(__dirname, '..', '..', '.data', 'temporal.db'),
    },
  });
});

test('the embedded server: moved ports and data folder, and the address every process connects to', () => {
  const config = loadConfig(
    { CAIRN_TEMPORAL_PORT: '17233', CAIRN_TEMPORAL_UI_PORT: '18233', CAIRN_TEMPORAL_DATA_DIR: 'tmp/temporal' },
    '/srv/cairn',
  );
  expect(config.embedded).toEqual({
    ip: '127.0.0.1',
    port: 17233,
    uiPort: 18233,
    dbFile: '/srv/cairn/tmp/temporal/temporal.db',
  });
  expect(config.temporal).toMatchObject({
    address: '127.0.0.1:17233',
    addressConfigured: false,
    connection: { address: '127.0.0.1:17233' },
  });
  expect(loadConfig({ CAIRN_TEMPORAL_DATA_DIR: '/var/lib/cairn' }).embedded.dbFile).toBe('/var/lib/cairn/temporal.db');
  expect(loadConfig({}).embedded).toMatchObject({ port: 7233, uiPort: 8233 });
});

test('the embedded server: bad, clashing or pointless settings are refused, one line each', () => {
  expect(errorLines({ CAIRN_TEMPORAL_PORT: '70000', CAIRN_TEMPORAL_UI_PORT: 'ui' })).toEqual([
    'CAIRN_TEMPORAL_PORT: expected a port between 1 and 65535, got "70000"',
    'CAIRN_TEMPORAL_UI_PORT: expected a port number, got "ui"',
  ]);
  expect(errorLines({ CAIRN_TEMPORAL_PORT: '9000', CAIRN_TEMPORAL_UI_PORT: '9000' })).toEqual([
    'CAIRN_TEMPORAL_UI_PORT: expected a port other than the gRPC port 9000, got 9000',
  ]);
  expect(errorLines({ CAIRN_HTTP_PORT: '8233' })).toEqual([
    'CAIRN_TEMPORAL_UI_PORT: expected a port other than CAIRN_HTTP_PORT 8233, got 8233',
  ]);
  // With a server configured nothing embedded runs: a setting for it would be silently ignored.
  expect(errorLines({ TEMPORAL_ADDRESS: 'temporal:7233', CAIRN_TEMPORAL_PORT: '7300' })).toEqual([
    'CAIRN_TEMPORAL_PORT: applies to the embedded dev server only, but TEMPORAL_ADDRESS (or a temporal.toml profile) names the server to use; unset one of them',
  ]);
  expect(configProblems({ TEMPORAL_ADDRESS: 'temporal:7233', CAIRN_HTTP_PORT: '8233' })).toEqual([]);
});

test('the ledger lies beside the workspace unless set, and never inside it', () => {
  expect(loadConfig({ CAIRN_WORKSPACE: '/data/ws/' }).ledgerDir).toBe('/data/ws.ledger');
  expect(loadConfig({ CAIRN_WORKSPACE: 'ws', CAIRN_LEDGER_DIR: 'ws-ledger' }, '/srv').ledgerDir).toBe('ws-ledger');
  expect(errorLines({ CAIRN_WORKSPACE: '/data/ws', CAIRN_LEDGER_DIR: '/data/ws/.cairn' })).toEqual([
    'CAIRN_LEDGER_DIR: expected a folder outside CAIRN_WORKSPACE, got "/data/ws/.cairn"',
  ]);
  expect(errorLines({ CAIRN_WORKSPACE: 'ws', CAIRN_LEDGER_DIR: './ws' })).toHaveLength(1);
});

test('finished agents keep their folders for ever unless a retention in days is set', () => {
  expect(loadConfig({}).workspaceRetentionDays).toBeUndefined();
  expect(loadConfig({ CAIRN_WORKSPACE_RETENTION_DAYS: '7' }).workspaceRetentionDays).toBe(7);
  expect(errorLines({ CAIRN_WORKSPACE_RETENTION_DAYS: '0' })).toEqual([
    'CAIRN_WORKSPACE_RETENTION_DAYS: expected a number above 0, got "0"',
  ]);
});

test("threads keep the thread input's compress threshold unless CAIRN_THREAD_COMPRESS_CHARS sets one in range", () => {
  expect(loadConfig({}).threads).toEqual({});
  expect(loadConfig({ CAIRN_THREAD_COMPRESS_CHARS: '4000' }).threads).toEqual({ compressAtChars: 4_000 });
  expect(errorLines({ CAIRN_THREAD_COMPRESS_CHARS: '100' })).toEqual([
    'CAIRN_THREAD_COMPRESS_CHARS: expected at least 500, got "100"',
  ]);
});

test('an API key alone means OpenAI itself, not the demo model', () => {
  const { llm } = loadConfig({ OPENAI_API_KEY: 'sk-test' });
  expect(llm.demo).toBe(false);
  expect(llm.baseUrl).toBe('https://api.openai.com/v1');
});

test('each bad value gets one line naming the variable, the rule and the value', () => {
  const lines = errorLines({
    CAIRN_HTTP_PORT: 'eighty',
    TEMPORAL_ADDRESS: 'http://localhost:7233',
    OPENAI_BASE_URL: 'ftp://models',
    CAIRN_LLM_RATE_LIMIT: '-1',
    TEMPORAL_TLS: 'maybe',
    CAIRN_FETCH_ALLOW: 'loopback,everything',
    CAIRN_API_TOKEN: 'short',
  });
  expect(lines).toHaveLength(7);
  expect(lines).toEqual(
    expect.arrayContaining([
      'CAIRN_HTTP_PORT: expected a port number, got "eighty"',
      'TEMPORAL_ADDRESS: expected host:port, e.g. 127.0.0.1:7233, got "http://localhost:7233"',
      'OPENAI_BASE_URL: expected an http(s) URL, got "ftp://models"',
      'CAIRN_LLM_RATE_LIMIT: expected a number above 0, got "-1"',
      'TEMPORAL_TLS: expected true or false, got "maybe"',
      'CAIRN_FETCH_ALLOW: expected a list of loopback, private, link-local, got "loopback,everything"',
    ]),
  );
  // Secrets are never echoed back.
  expect(lines.find((l) => l.startsWith('CAIRN_API_TOKEN'))).toBe(
    'CAIRN_API_TOKEN: expected at least 16 characters (a guessable token is no token), got a hidden value',
  );
});

test('a port out of range and a fractional port are refused', () => {
  expect(errorLines({ CAIRN_HTTP_PORT: '70000' })).toEqual([
    'CAIRN_HTTP_PORT: expected a port between 1 and 65535, got "70000"',
  ]);
  expect(errorLines({ CAIRN_HTTP_PORT: '80.5' })).toEqual(['CAIRN_HTTP_PORT: expected a whole number, got "80.5"']);
});

test('the error message lists every line', () => {
  expect(() => loadConfig({ CAIRN_HTTP_PORT: 'x', CAIRN_LLM_TIMEOUT_MS: '0' })).toThrow(
    /Invalid configuration:\n {2}CAIRN_HTTP_PORT: .*\n {2}CAIRN_LLM_TIMEOUT_MS: expected a number above 0, got "0"/,
  );
});

describe('payload protection', () => {
  const keyA = randomBytes(32).toString('base64');
  const keyB = randomBytes(32).toString('base64');

  test('off unless keys are configured; compression on by default', () => {
    const config = loadConfig({});
    expect(config.payloads).toEqual({ compression: true });
    expect(loadConfig({ CAIRN_COMPRESSION: 'off' }).payloads.compression).toBe(false);
  });

  test('keys from the variable, the first one current', () => {
    const { payloads } = loadConfig({
      CAIRN_ENCRYPTION_KEYS: `b:${keyB}, a:${keyA}`,
      CAIRN_CODEC_CORS_ORIGIN: 'http://localhost:8233/',
    });
    expect(payloads.keys?.map((k) => k.id)).toEqual(['b', 'a']);
    expect(payloads.keys?.[0]?.key.toString('base64')).toBe(keyB);
    expect(payloads.codecCorsOrigin).toBe('http://localhost:8233');
  });

  test('keys from a file, one per line', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cairn-keys-')), 'keys');
    writeFileSync(file, `# rotated 2026-11\nb:${keyB}\na:${keyA}\n`);
    expect(loadConfig({ CAIRN_ENCRYPTION_KEYS_FILE: file }).payloads.keys?.map((k) => k.id)).toEqual(['b', 'a']);
  });

  test('bad keys are one line each, naming the entry and never the key material', () => {
    const short = Buffer.alloc(16, 3).toString('base64');
    const lines = errorLines({ CAIRN_ENCRYPTION_KEYS: `a:${short},${keyA},a:${keyA},a:${keyB}` });
    expect(lines).toEqual([
      'CAIRN_ENCRYPTION_KEYS: entry 1 ("a"): expected base64 of 32 bytes (openssl rand -base64 32), got a hidden value',
      'CAIRN_ENCRYPTION_KEYS: entry 2: expected <key id>:<base64 of 32 bytes>, the id of letters, digits, . _ -',
      'CAIRN_ENCRYPTION_KEYS: entry 3 ("a"): the key id appears twice',
      'CAIRN_ENCRYPTION_KEYS: entry 4 ("a"): the key id appears twice',
    ]);
    expect(lines.join('\n')).not.toContain(short);
    expect(lines.join('\n')).not.toContain(keyA);
    expect(errorLines({ CAIRN_ENCRYPTION_KEYS_FILE: '/no/such/keys' })).toEqual([
      'CAIRN_ENCRYPTION_KEYS_FILE: expected a readable key file, got "/no/such/keys"',
    ]);
    expect(errorLines({ CAIRN_ENCRYPTION_KEYS: `a:${keyA}`, CAIRN_ENCRYPTION_KEYS_FILE: '/k' })).toEqual([
      'CAIRN_ENCRYPTION_KEYS: set either it or CAIRN_ENCRYPTION_KEYS_FILE, not both',
    ]);
    expect(errorLines({ CAIRN_COMPRESSION: 'maybe' })).toEqual(['CAIRN_COMPRESSION: expected on or off, got "maybe"']);
  });

  test('a guessable key (all zero, one byte repeated) or one key under two ids is refused, in the variable and the file', () => {
    const zero = Buffer.alloc(32).toString('base64');
    const repeated = Buffer.alloc(32, 0xa5).toString('base64');
    const list = `z:${zero},r:${repeated},a:${keyA},b:${keyB},c:${keyA}`;
    const expected = (source: string) => [
      `${source}: entry 1 ("z"): the key is all zero bytes; generate one with openssl rand -base64 32`,
      `${source}: entry 2 ("r"): the key is one byte repeated; generate one with openssl rand -base64 32`,
      `${source}: entry 5 ("c"): the same key as entry 3 ("a"); every id needs a key of its own`,
    ];
    const lines = errorLines({ CAIRN_ENCRYPTION_KEYS: list });
    expect(lines).toEqual(expected('CAIRN_ENCRYPTION_KEYS'));
    for (const material of [zero, repeated, keyA]) expect(lines.join('\n')).not.toContain(material);
    const file = join(mkdtempSync(join(tmpdir(), 'cairn-keys-')), 'keys');
    writeFileSync(file, list.replaceAll(',', '\n'));
    expect(errorLines({ CAIRN_ENCRYPTION_KEYS_FILE: file })).toEqual(expected('CAIRN_ENCRYPTION_KEYS_FILE'));
  });
});

test('CAIRN_PUBLIC_URL is an http(s) origin, kept as its origin; anything else is refused', () => {
  expect(loadConfig({ CAIRN_PUBLIC_URL: 'https://Cairn.Example.com/' }).http.publicUrl).toBe(
    'https://cairn.example.com',
  );
  expect(loadConfig({ CAIRN_PUBLIC_URL: 'https://cairn.example.com:8443' }).http.publicUrl).toBe(
    'https://cairn.example.com:8443',
  );
  expect(loadConfig({}).http.publicUrl).toBeUndefined();
  for (const bad of ['cairn.example.com', 'ftp://cairn.example.com', 'https://cairn.example.com/cairn']) {
    expect(errorLines({ CAIRN_PUBLIC_URL: bad })).toEqual([expect.stringMatching(/^CAIRN_PUBLIC_URL: expected /)]);
  }
  expect(errorLines({ CAIRN_PUBLIC_URL: 'https://user:pw@cairn.example.com' })).toEqual([
    expect.stringMatching(/^CAIRN_PUBLIC_URL: expected an origin without path, query or credentials/),
  ]);
});

test('CAIRN_PLAINTEXT_MESSAGES is refuse (the default) or accept', () => {
  expect(loadConfig({}).payloads.plaintextMessages).toBeUndefined();
  expect(loadConfig({ CAIRN_PLAINTEXT_MESSAGES: 'refuse' }).payloads.plaintextMessages).toBeUndefined();
  expect(loadConfig({ CAIRN_PLAINTEXT_MESSAGES: 'accept' }).payloads.plaintextMessages).toBe('accept');
  expect(errorLines({ CAIRN_PLAINTEXT_MESSAGES: 'yes' })).toEqual([
    'CAIRN_PLAINTEXT_MESSAGES: expected refuse or accept, got "yes"',
  ]);
});

test('open streams per principal and in total: defaults, either set alone, and one principal never above all', () => {
  const streams = (env: Record<string, string>) => loadConfig(env).http.streams;
  expect(DEFAULT_STREAM_LIMITS.perPrincipal).toBeLessThan(DEFAULT_STREAM_LIMITS.total);
  expect(streams({ CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL: '4', CAIRN_HTTP_MAX_STREAMS: '40' })).toEqual({
    perPrincipal: 4,
    total: 40,
  });
  // One set alone: the other's default, moved so that one principal's never exceeds everyone's.
  expect(streams({ CAIRN_HTTP_MAX_STREAMS: '5' })).toEqual({ perPrincipal: 5, total: 5 });
  expect(streams({ CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL: '500' })).toEqual({ perPrincipal: 500, total: 500 });
  expect(errorLines({ CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL: '8', CAIRN_HTTP_MAX_STREAMS: '4' })).toEqual([
    'CAIRN_HTTP_MAX_STREAMS_PER_PRINCIPAL: expected at most CAIRN_HTTP_MAX_STREAMS (4), got 8',
  ]);
  for (const bad of ['0', '-1', '2.5', 'many', '1000000']) {
    expect(errorLines({ CAIRN_HTTP_MAX_STREAMS: bad })).toEqual([
      expect.stringMatching(/^CAIRN_HTTP_MAX_STREAMS: expected /),
    ]);
  }
});

test('upload limits: the defaults, each variable, type lists, and a file never allowed more than its request', () => {
  const uploads = (env: Record<string, string>) => loadConfig(env).http.uploads;
  expect(uploads({})).toEqual(DEFAULT_UPLOAD_LIMITS);
  expect(DEFAULT_UPLOAD_LIMITS).toMatchObject({
    maxFileBytes: 25 * 2 ** 20,
    maxRequestBytes: 100 * 2 ** 20,
    maxFiles: 20,
  });
  expect(
    uploads({
      CAIRN_UPLOAD_MAX_FILE_BYTES: '1000',
      CAIRN_UPLOAD_MAX_REQUEST_BYTES: '5000',
      CAIRN_UPLOAD_MAX_FILES: '3',
      CAIRN_UPLOAD_TYPES: 'PDF, .csv ,txt',
    }),
  ).toEqual({ maxFileBytes: 1000, maxRequestBytes: 5000, maxFiles: 3, types: ['pdf', 'csv', 'txt'] });
  expect(uploads({ CAIRN_UPLOAD_TYPES: '*' }).types).toEqual(['*']);
  expect(errorLines({ CAIRN_UPLOAD_MAX_FILE_BYTES: '5000', CAIRN_UPLOAD_MAX_REQUEST_BYTES: '1000' })).toEqual([
    'CAIRN_UPLOAD_MAX_FILE_BYTES: expected at most CAIRN_UPLOAD_MAX_REQUEST_BYTES (1000), got 5000',
  ]);
  expect(errorLines({ CAIRN_UPLOAD_MAX_FILES: '51' })).toEqual([
    expect.stringMatching(/^CAIRN_UPLOAD_MAX_FILES: expected at most 50/),
  ]);
  expect(errorLines({ CAIRN_UPLOAD_TYPES: 'pdf,../x' })).toEqual([
    expect.stringMatching(/^CAIRN_UPLOAD_TYPES: expected file name extensions/),
  ]);
  for (const bad of ['0', '-1', '2.5', 'lots'])
    expect(errorLines({ CAIRN_UPLOAD_MAX_REQUEST_BYTES: bad })).toEqual([
      expect.stringMatching(/^CAIRN_UPLOAD_MAX_REQUEST_BYTES: expected /),
    ]);
});

test('CAIRN_LLM_ENDPOINTS: named endpoints with their keys read from their variables; bad ones refused, one line each', () => {
  const endpoints = [
    { name: 'local', baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen' },
    { name: 'hosted', baseUrl: 'https://llm.example.com/v1', apiKeyEnv: 'HOSTED_KEY', model: 'big', ratePerSecond: 5 },
  ];
  const config = loadConfig({ CAIRN_LLM_ENDPOINTS: JSON.stringify(endpoints), HOSTED_KEY: 'sk-hosted' });
  expect(config.llm.endpoints).toEqual([
    { name: 'local', baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen' },
    { name: 'hosted', baseUrl: 'https://llm.example.com/v1', apiKey: 'sk-hosted', model: 'big', ratePerSecond: 5 },
  ]);
  expect(loadConfig({}).llm.endpoints).toEqual([]);
  // A key variable named but not set stops the process at start, naming the endpoint and the variable.
  expect(configProblems({ CAIRN_LLM_ENDPOINTS: JSON.stringify(endpoints) })).toEqual([
    'CAIRN_LLM_ENDPOINTS: 1.apiKeyEnv: endpoint "hosted" needs HOSTED_KEY, which is not set',
  ]);
  const bad = [
    { name: 'default', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' },
    { name: 'two', baseUrl: 'not a url', model: 'm' },
  ];
  const lines = configProblems({ CAIRN_LLM_ENDPOINTS: JSON.stringify(bad) });
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/^CAIRN_LLM_ENDPOINTS: 0\.name: .*OPENAI_BASE_URL's/);
  expect(lines[1]).toMatch(/^CAIRN_LLM_ENDPOINTS: 1\.baseUrl: /);
  const twice = [endpoints[0], endpoints[0]];
  expect(configProblems({ CAIRN_LLM_ENDPOINTS: JSON.stringify(twice) })).toEqual([
    'CAIRN_LLM_ENDPOINTS: 1.name: "local" is named twice',
  ]);
  expect(configProblems({ CAIRN_LLM_ENDPOINTS: '[{' })[0]).toMatch(/^CAIRN_LLM_ENDPOINTS: expected JSON/);
});

test("each endpoint's calls have a task queue of their own; the default keeps <task queue>-llm", () => {
  expect(llmTaskQueue('cairn')).toBe('cairn-llm');
  expect(llmTaskQueue('cairn', 'default')).toBe('cairn-llm');
  expect(llmTaskQueue('cairn', 'hosted')).toBe('cairn-llm-hosted');
});
