/** The one redactor: configured secrets and credential-shaped text never survive it. */
import { configuredSecrets, createRedactor, REDACTED } from '../../config/redact-secrets';

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
