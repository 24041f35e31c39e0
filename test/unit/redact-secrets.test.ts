/** The one redactor: configured secrets and credential-shaped text never survive it. */
import { configuredSecrets, createRedactor, MAX_REDACTED_CHARS, REDACTED } from '../../config/redact-secrets';

const redact = createRedactor(['my-configured-secret-value', 'short']);

test.each([
  ['a configured secret anywhere', 'key was my-configured-secret-value!', 'key was [redacted]!'],
  ['a bearer token', 'Authorization: Bearer abc.def-ghi_jkl', 'Authorization: Bearer [redacted]'],
  ['a basic credential', 'authorization: basic dXNlcjpwYXNzd29yZA==', 'authorization: basic [redacted]'],
  ['an OpenAI key', 'Incorrect API key provided: sk-proj-AbCdEf0123456789.', 'Incorrect API key provided: [redacted].'],
  ['a GitHub token', 'token ghp_abcdefghijklmnopqrstuvwxyz0123', 'token [redacted]'],
  ['an AWS access key id', 'id AKIAABCDEFGHIJKLMNOP used', 'id [redacted] used'],
  [
    'a JSON Web Token',
    'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    'jwt [redacted]',
  ],
  ['an api_key query parameter', 'GET /v1?api_key=abcd1234&x=1', 'GET /v1?api_key=[redacted]&x=1'],
  ['a JSON secret field', '{"client_secret": "s3cr3t-value"}', '{"client_secret": "[redacted]"}'],
  [
    'a PEM private key (a TLS client key)',
    'bad key -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY----- in config',
    'bad key [redacted] in config',
  ],
  ['a PEM key cut short', 'got -----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIO', 'got [redacted]'],
  ['a password pair', 'password=hunter22 user=bob', 'password=[redacted] user=bob'],
  ['a cookie header', 'headers: { cookie: theme=dark; cairn_session=abc123XYZ }', 'headers: { cookie: [redacted]'],
  ['a JSON cookie field', '{"cookie":"cairn_session=abc123XYZ","host":"x"}', '{"cookie":"[redacted]","host":"x"}'],
  ['a session cookie alone', 'sid cairn_session=Zk3-9_aQ; Path=/', 'sid cairn_session=[redacted]; Path=/'],
  [
    'a password in a URL',
    'cannot fetch https://bob:s3cret-pw@api.example.com/x',
    'cannot fetch https://bob:[redacted]@api.example.com/x',
  ],
])('removes %s', (_what, text, expected) => {
  expect(redact(text)).toBe(expected);
});

test('leaves ordinary error text alone, including short configured values', () => {
  const text = 'LLM endpoint answered 500: the model is overloaded (short retry later), see docs';
  expect(redact(text)).toBe(text);
});

test('a secret that contains another configured one is removed whole', () => {
  const nested = createRedactor(['abcdefgh', 'xxabcdefghxx']);
  expect(nested('v=xxabcdefghxx')).toBe(`v=${REDACTED}`);
});

test('the configured secrets are the LLM key, the Temporal API key and the HTTP API token', () => {
  expect(
    configuredSecrets({ llm: { apiKey: 'a-key' }, temporal: { apiKey: 't-key' }, http: { apiToken: 'h-token' } }),
  ).toEqual(['a-key', 't-key', 'h-token']);
  expect(configuredSecrets({ llm: {}, temporal: {} })).toEqual([]);
});

/**
 * The least time of a few runs of `work` (the least is what the work costs; the rest is the
 * machine's noise).
 */
function leastMs(work: () => void, runs = 3): number {
  let least = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    work();
    least = Math.min(least, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return least;
}

/** Text of `length` characters repeating `unit`. */
const repeated = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

// Inputs that made a pattern start at every position of one run and scan to its end: a long
// `encryption-key-id` the codec server logged, a `read_file` path a prompt-injected model named.
test.each([
  ['a key id of a-a-a-…', (n: number) => repeated('a-', n)],
  ['a JWT-like run eyJ-eyJ-…', (n: number) => repeated('eyJ-', n)],
  ['a long read_file path', (n: number) => `read_file failed: "${repeated('notes-v2-', n)}" does not exist`],
])('redacting %s is linear in its length', (_what, text) => {
  const small = text(300);
  const large = text(30_000);
  // The same number of characters either way: linear work gives a ratio near 1 (below, as each
  // small call's fixed cost counts), quadratic work near 100 (the old patterns took 2.7 s on
  // 40,000 characters). The bound leaves 10x both ways: far more than a busy machine's noise,
  // each side the least of five runs taken one after the other.
  const smallMs = leastMs(() => {
    for (let i = 0; i < 100; i += 1) redact(small);
  }, 5);
  const largeMs = leastMs(() => redact(large), 5);
  expect(largeMs / Math.max(smallMs, 0.5)).toBeLessThan(10);
});

test('no more than MAX_REDACTED_CHARS reach the patterns, and the cut is said', () => {
  const huge = `${'a-'.repeat(250_000)}password=hunter22`;
  const out = redact(huge);
  expect(out.length).toBeLessThan(MAX_REDACTED_CHARS + 100);
  expect(out.startsWith('a-a-')).toBe(true);
  expect(out).toMatch(/\[\d+ more characters cut\]$/);
  expect(out).not.toContain('hunter22');
});

test('a configured secret on the cut is removed whole before the cut', () => {
  const secret = 'configured-secret-on-the-cut-0123456789';
  const straddling = `${'x'.repeat(MAX_REDACTED_CHARS - 10)}${secret}${'y'.repeat(100)}`;
  const out = createRedactor([secret])(straddling);
  expect(out).not.toContain(secret.slice(0, 10));
  expect(out).toContain(REDACTED);
});
