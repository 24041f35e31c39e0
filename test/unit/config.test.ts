/** The configuration schema: defaults, every variable read, and one clear line per bad value. */
import { ConfigError, DEFAULT_TASK_QUEUE, DEFAULT_TEMPORAL_ADDRESS, loadConfig } from '../../config/config';

function errorLines(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.lines;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

test('an empty environment gives the embedded defaults and the demo model', () => {
  const config = loadConfig({}, '/srv/cairn');
  expect(config.temporal).toEqual({
    address: DEFAULT_TEMPORAL_ADDRESS,
    addressConfigured: false,
    namespace: 'default',
  });
  expect(config.taskQueue).toBe(DEFAULT_TASK_QUEUE);
  expect(config.llm.demo).toBe(true);
  expect(config.workspace).toBe('/srv/cairn/.data/workspace');
  expect(config.ledgerDir).toBe('/srv/cairn/.data/workspace.ledger');
  expect(config.http).toEqual({ host: '127.0.0.1', port: 3000, apiToken: undefined });
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
    CAIRN_WORKSPACE: '/data/ws',
    CAIRN_LEDGER_DIR: '/data/ledger',
    CAIRN_FETCH_ALLOW: 'loopback, private',
    CAIRN_TOOLS: './tools/a.ts,./tools/b.ts',
    CAIRN_MCP_SERVERS: '[]',
    CAIRN_AUTO_APPROVE: 'write_file',
    CAIRN_HTTP_PORT: '8080',
    CAIRN_HTTP_HOST: '0.0.0.0',
    CAIRN_API_TOKEN: 'a-long-enough-token',
  });
  expect(config).toEqual({
    temporal: {
      address: 'temporal.example.com:7233',
      addressConfigured: true,
      namespace: 'agents',
      apiKey: 'cloud-key',
      tls: { certPath: undefined, keyPath: undefined },
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
    },
    workspace: '/data/ws',
    ledgerDir: '/data/ledger',
    tools: {
      fetchAllow: ['loopback', 'private'],
      modules: ['./tools/a.ts', './tools/b.ts'],
      mcpServers: '[]',
      autoApprove: ['write_file'],
    },
    http: { host: '0.0.0.0', port: 8080, apiToken: 'a-long-enough-token' },
  });
});

test('the ledger lies beside the workspace unless set, and never inside it', () => {
  expect(loadConfig({ CAIRN_WORKSPACE: '/data/ws/' }).ledgerDir).toBe('/data/ws.ledger');
  expect(loadConfig({ CAIRN_WORKSPACE: 'ws', CAIRN_LEDGER_DIR: 'ws-ledger' }, '/srv').ledgerDir).toBe('ws-ledger');
  expect(errorLines({ CAIRN_WORKSPACE: '/data/ws', CAIRN_LEDGER_DIR: '/data/ws/.cairn' })).toEqual([
    'CAIRN_LEDGER_DIR: expected a folder outside CAIRN_WORKSPACE, got "/data/ws/.cairn"',
  ]);
  expect(errorLines({ CAIRN_WORKSPACE: 'ws', CAIRN_LEDGER_DIR: './ws' })).toHaveLength(1);
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

test('mTLS needs both the certificate and the key', () => {
  expect(errorLines({ TEMPORAL_TLS_CERT_PATH: '/c.pem' })).toEqual([
    'TEMPORAL_TLS_CERT_PATH / TEMPORAL_TLS_KEY_PATH: expected both or neither for mTLS',
  ]);
});

test('the error message lists every line', () => {
  expect(() => loadConfig({ CAIRN_HTTP_PORT: 'x', CAIRN_LLM_TIMEOUT_MS: '0' })).toThrow(
    /Invalid configuration:\n {2}CAIRN_HTTP_PORT: .*\n {2}CAIRN_LLM_TIMEOUT_MS: expected a number above 0, got "0"/,
  );
});
