/**
 * The Temporal connection settings come from the SDK's own configuration (@temporalio/envconfig):
 * a temporal.toml profile, overridden by the standard TEMPORAL_* variables exactly as the
 * temporal CLI does, checked by Cairn with one line per bad value naming its variable or profile key.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TEMPORAL_ADDRESS, loadConfig } from '../../config/config';
import { TEMPORAL_ENV_NAMES } from '../../config/temporal-config';
import { connectionOptions } from '../../temporal/connection-options';
import { errorLines } from '../harness/config-errors';

const ROOT = join(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'cairn-temporal-config-'));

/** Writes a temporal.toml and returns its path. */
function tomlFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const PROFILES = tomlFile(
  'temporal.toml',
  `
[profile.default]
address = "temporal.internal:7233"
namespace = "agents"

[profile.staging]
address = "staging.internal:7233"
namespace = "staging"
api_key = "staging-key"
[profile.staging.grpc_meta]
x-team = "cairn"
`,
);

test('the default profile of TEMPORAL_CONFIG_FILE configures the connection', () => {
  const { temporal } = loadConfig({ TEMPORAL_CONFIG_FILE: PROFILES });
  expect(temporal).toEqual({
    address: 'temporal.internal:7233',
    addressConfigured: true,
    namespace: 'agents',
    connection: { address: 'temporal.internal:7233' },
  });
});

test('TEMPORAL_PROFILE picks another profile, with its API key (TLS on) and gRPC headers', () => {
  const { temporal } = loadConfig({ TEMPORAL_CONFIG_FILE: PROFILES, TEMPORAL_PROFILE: 'staging' });
  expect(temporal).toEqual({
    address: 'staging.internal:7233',
    addressConfigured: true,
    namespace: 'staging',
    apiKey: 'staging-key',
    connection: { address: 'staging.internal:7233', apiKey: 'staging-key', tls: true, metadata: { 'x-team': 'cairn' } },
  });
  expect(connectionOptions(temporal)).toBe(temporal.connection);
});

test('the standard variables override the profile key by key, as the SDK defines', () => {
  const { temporal } = loadConfig({
    TEMPORAL_CONFIG_FILE: PROFILES,
    TEMPORAL_PROFILE: 'staging',
    TEMPORAL_ADDRESS: '10.0.0.5:7233',
    TEMPORAL_TLS: 'false',
    TEMPORAL_GRPC_META_X_TEAM: 'other',
  });
  expect(temporal).toEqual({
    address: '10.0.0.5:7233',
    addressConfigured: true,
    namespace: 'staging', // not overridden: the profile's
    apiKey: 'staging-key',
    connection: { address: '10.0.0.5:7233', apiKey: 'staging-key', tls: false, metadata: { 'x-team': 'other' } },
  });
});

test('the variables alone work without any file, and an empty one counts as unset', () => {
  const { temporal } = loadConfig({
    TEMPORAL_ADDRESS: 'temporal:7233',
    TEMPORAL_NAMESPACE: 'ns',
    TEMPORAL_API_KEY: '',
  });
  expect(temporal).toEqual({
    address: 'temporal:7233',
    addressConfigured: true,
    namespace: 'ns',
    connection: { address: 'temporal:7233' },
  });
});

test("the user's default temporal.toml is read as the CLI reads it, and an address there counts as configured", () => {
  const home = join(dir, 'home');
  mkdirSync(join(home, '.config', 'temporalio'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'temporalio', 'temporal.toml'),
    '[profile.default]\naddress = "home.internal:7233"\n',
  );
  expect(loadConfig({ HOME: home }).temporal).toMatchObject({ address: 'home.internal:7233', addressConfigured: true });
  // A file without an address leaves the embedded dev server's default in place.
  const bare = tomlFile('bare.toml', '[profile.default]\nnamespace = "x"\n');
  expect(loadConfig({ TEMPORAL_CONFIG_FILE: bare }).temporal).toMatchObject({
    address: DEFAULT_TEMPORAL_ADDRESS,
    addressConfigured: false,
    namespace: 'x',
  });
});

test('a Temporal Cloud profile (API key, TLS) passes the configuration check', () => {
  const cloud = tomlFile(
    'cloud.toml',
    `
[profile.cloud]
address = "cairn-prod.a1b2c.tmprl.cloud:7233"
namespace = "cairn-prod.a1b2c"
api_key = "eyJhbGciOiJFUzI1NiJ9.cloud-key"
[profile.cloud.tls]
server_name = "cairn-prod.a1b2c.tmprl.cloud"
`,
  );
  const { temporal } = loadConfig({ TEMPORAL_CONFIG_FILE: cloud, TEMPORAL_PROFILE: 'cloud' });
  expect(temporal).toMatchObject({
    address: 'cairn-prod.a1b2c.tmprl.cloud:7233',
    addressConfigured: true,
    namespace: 'cairn-prod.a1b2c',
    apiKey: 'eyJhbGciOiJFUzI1NiJ9.cloud-key',
    connection: {
      address: 'cairn-prod.a1b2c.tmprl.cloud:7233',
      apiKey: 'eyJhbGciOiJFUzI1NiJ9.cloud-key',
      tls: { serverNameOverride: 'cairn-prod.a1b2c.tmprl.cloud' },
    },
  });
});

test('an mTLS profile reads its certificate and key files', () => {
  const crt = tomlFile('client.pem', 'CERTIFICATE');
  const key = tomlFile('client.key', 'KEY');
  const mtls = tomlFile(
    'mtls.toml',
    `[profile.default]\naddress = "ns.acct.tmprl.cloud:7233"\nnamespace = "ns.acct"\n` +
      `[profile.default.tls]\nclient_cert_path = "${crt}"\nclient_key_path = "${key}"\n`,
  );
  const { connection } = loadConfig({ TEMPORAL_CONFIG_FILE: mtls }).temporal;
  expect(connection.tls).toMatchObject({
    clientCertPair: { crt: Buffer.from('CERTIFICATE'), key: Buffer.from('KEY') },
  });
});

test('bad values get one line each, naming the variable or the profile key', () => {
  const bad = tomlFile('bad.toml', '[profile.default]\naddress = "https://temporal:7233"\nnamespace = 42\n');
  expect(errorLines({ TEMPORAL_CONFIG_FILE: bad })).toEqual([
    `${bad} profile "default" address: expected host:port, e.g. 127.0.0.1:7233, got "https://temporal:7233"`,
    `${bad} profile "default" namespace: expected a namespace name, got "42"`,
  ]);
  // The variable wins over the profile, so a bad variable is named as such.
  expect(errorLines({ TEMPORAL_CONFIG_FILE: bad, TEMPORAL_ADDRESS: 'a b', TEMPORAL_NAMESPACE: 'ok' })).toEqual([
    'TEMPORAL_ADDRESS: expected host:port, e.g. 127.0.0.1:7233, got "a b"',
  ]);
  expect(errorLines({ TEMPORAL_TLS: 'yes', CAIRN_HTTP_PORT: 'x' })).toEqual([
    'CAIRN_HTTP_PORT: expected a port number, got "x"',
    'TEMPORAL_TLS: expected true or false, got "yes"',
  ]);
});

test('a missing file or profile, and broken TOML, stop the start with a clear line', () => {
  const missing = join(dir, 'nope.toml');
  expect(errorLines({ TEMPORAL_CONFIG_FILE: missing })).toEqual([
    `TEMPORAL_CONFIG_FILE: expected a temporal.toml file, got "${missing}" (no such file)`,
  ]);
  expect(errorLines({ TEMPORAL_CONFIG_FILE: PROFILES, TEMPORAL_PROFILE: 'prod' })).toEqual([
    `TEMPORAL_PROFILE: no profile "prod" in ${PROFILES}`,
  ]);
  const broken = tomlFile('broken.toml', '[profile.default\naddress = ');
  const [line, ...rest] = errorLines({ TEMPORAL_CONFIG_FILE: broken });
  expect(rest).toEqual([]);
  expect(line).toMatch(/^TEMPORAL_CONFIG_FILE: .+/);
});

test('mTLS needs both the certificate and the key, and files that exist', () => {
  const crt = tomlFile('only.pem', 'CERTIFICATE');
  expect(errorLines({ TEMPORAL_ADDRESS: 'x:1', TEMPORAL_TLS_CLIENT_CERT_PATH: crt })).toEqual([
    'TEMPORAL_TLS_CLIENT_CERT_PATH: expected both a client certificate and its key for mTLS, or neither',
  ]);
  expect(
    errorLines({ TEMPORAL_TLS_CLIENT_CERT_PATH: crt, TEMPORAL_TLS_CLIENT_KEY_PATH: join(dir, 'missing.key') }),
  ).toEqual([`TEMPORAL_TLS_CLIENT_KEY_PATH: expected a readable file, got "${join(dir, 'missing.key')}"`]);
});

test("Cairn's old TLS variable names are refused rather than silently ignored", () => {
  expect(errorLines({ TEMPORAL_TLS_CERT_PATH: '/c.pem', TEMPORAL_TLS_KEY_PATH: '/k.pem' })).toEqual([
    'TEMPORAL_TLS_CERT_PATH: renamed TEMPORAL_TLS_CLIENT_CERT_PATH (the name the temporal CLI and SDKs read)',
    'TEMPORAL_TLS_KEY_PATH: renamed TEMPORAL_TLS_CLIENT_KEY_PATH (the name the temporal CLI and SDKs read)',
  ]);
});

test('the configuration page documents every Temporal variable Cairn reads', () => {
  const page = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
  for (const name of TEMPORAL_ENV_NAMES) expect(page).toContain(`\`${name}\``);
});
