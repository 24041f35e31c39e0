/**
 * Authentication configuration (docs/operations.md#authentication-and-roles): the mode each set
 * of variables means, the problems refused at load, the tokens file's checks, and the server that
 * will not start without authentication on an address other machines reach.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLoopbackHost } from '../../config/auth-config';
import { loadConfig } from '../../config/config';
import { createAuthenticator } from '../../client/http/auth/create-authenticator';
import { grants, rolesFrom } from '../../client/http/auth/principal';
import { requiredRoles } from '../../client/http/auth/route-roles';
import { sha256Hex, TokenTable } from '../../client/http/auth/token-table';
import { errorLines } from '../harness/config-errors';
import { serveApi } from '../../client/http/serve-api';
import { configProblems } from '../harness/config-errors';

const ROOT = join(__dirname, '..', '..');
const TOKEN = 'a-long-enough-api-token';

const problems = configProblems;

test('the mode follows CAIRN_AUTH, else what the other variables imply', () => {
  expect(loadConfig({}).auth).toEqual({ mode: 'none' });
  expect(loadConfig({ CAIRN_API_TOKEN: TOKEN }).auth).toEqual({ mode: 'tokens', apiToken: TOKEN });
  expect(loadConfig({ CAIRN_TOKENS_FILE: '/etc/cairn/tokens.json' }).auth).toEqual({
    mode: 'tokens',
    tokensFile: '/etc/cairn/tokens.json',
  });
  const oidc = loadConfig({
    CAIRN_OIDC_ISSUER: 'https://id.example.com',
    CAIRN_OIDC_CLIENT_ID: 'cairn',
    CAIRN_OIDC_CLIENT_SECRET: 'shh',
  }).auth;
  expect(oidc).toEqual({
    mode: 'oidc',
    oidc: {
      issuer: 'https://id.example.com',
      clientId: 'cairn',
      clientSecret: 'shh',
      audience: 'cairn',
      rolesClaim: 'roles',
      scopes: 'openid profile',
    },
  });
});

test("CAIRN_OIDC_ROLES_MAX_AGE_MS sets how long a session's roles are trusted: 10 s to 8 h", () => {
  const oidc = { CAIRN_OIDC_ISSUER: 'https://id.example.com', CAIRN_OIDC_CLIENT_ID: 'cairn' };
  const auth = loadConfig({ ...oidc, CAIRN_OIDC_ROLES_MAX_AGE_MS: '120000' }).auth;
  expect(auth.mode === 'oidc' ? auth.oidc.rolesMaxAgeMs : undefined).toBe(120_000);
  for (const bad of ['5000', '28800001', 'soon']) {
    expect(errorLines({ ...oidc, CAIRN_OIDC_ROLES_MAX_AGE_MS: bad })).toEqual([
      expect.stringMatching(/^CAIRN_OIDC_ROLES_MAX_AGE_MS: expected /),
    ]);
  }
});

test('variables that do not fit together are refused at load, one line each, secrets hidden', () => {
  expect(problems({ CAIRN_AUTH: 'tokens' })).toEqual(['CAIRN_AUTH: tokens needs CAIRN_TOKENS_FILE or CAIRN_API_TOKEN']);
  expect(problems({ CAIRN_AUTH: 'none', CAIRN_API_TOKEN: TOKEN })).toEqual([
    'CAIRN_AUTH: none turns authentication off, but CAIRN_API_TOKEN or CAIRN_TOKENS_FILE is set',
  ]);
  expect(problems({ CAIRN_AUTH: 'oidc' })).toEqual([
    'CAIRN_OIDC_ISSUER: oidc needs the issuer URL',
    'CAIRN_OIDC_CLIENT_ID: oidc needs the client id',
  ]);
  expect(problems({ CAIRN_AUTH: 'everyone' })).toEqual(['CAIRN_AUTH: expected none, tokens or oidc, got "everyone"']);
});

test('loopback addresses', () => {
  expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].filter(isLoopbackHost)).toHaveLength(5);
  expect(['0.0.0.0', '::', '10.0.0.5', 'cairn.example.com', '[::]'].filter(isLoopbackHost)).toEqual([]);
});

test('none on a non-loopback address: the server refuses to start and says why', async () => {
  await expect(serveApi(loadConfig({ CAIRN_HTTP_HOST: '0.0.0.0' }))).rejects.toThrow(
    /CAIRN_AUTH is none but CAIRN_HTTP_HOST is "0\.0\.0\.0", which is not a loopback address/,
  );
  await expect(createAuthenticator({ mode: 'none' }, '10.0.0.5')).rejects.toThrow(/not a loopback address/);
  await expect(createAuthenticator({ mode: 'none' }, '127.0.0.1')).resolves.toMatchObject({ mode: 'none' });
  await expect(createAuthenticator({ mode: 'tokens', apiToken: TOKEN }, '0.0.0.0')).resolves.toMatchObject({
    mode: 'tokens',
  });
});

test('npm run web on 0.0.0.0 without authentication exits 1 with one line saying why', () => {
  const env: Record<string, string | undefined> = {
    ...process.env,
    CAIRN_HTTP_HOST: '0.0.0.0',
    CAIRN_HTTP_PORT: '1',
    TEMPORAL_ADDRESS: '127.0.0.1:1',
  };
  delete env.CAIRN_API_TOKEN;
  delete env.CAIRN_AUTH;
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'client/http/main.ts'],
    {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/^cairn web: CAIRN_AUTH is none but CAIRN_HTTP_HOST is "0\.0\.0\.0"/m);
}, 60_000);

test('the tokens file: hashed tokens only, each to a principal with roles; a bad file names itself and the entry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-tokens-'));
  const good = join(dir, 'good.json');
  writeFileSync(
    good,
    JSON.stringify([{ principal: 'ci', name: 'CI bot', roles: ['operator'], tokenSha256: sha256Hex('ci-token') }]),
  );
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify([{ principal: 'ci', roles: ['root'], tokenSha256: 'abc' }]));
  return Promise.all([
    expect(createAuthenticator({ mode: 'tokens', tokensFile: good }, '127.0.0.1')).resolves.toMatchObject({
      mode: 'tokens',
    }),
    expect(createAuthenticator({ mode: 'tokens', tokensFile: bad }, '127.0.0.1')).rejects.toThrow(
      new RegExp(`CAIRN_TOKENS_FILE ${bad}: 0\\.roles\\.0: .*; 0\\.tokenSha256: must be the 64 hex digits`),
    ),
  ]);
});

test('a token table finds the principal of a token and nobody for another', () => {
  const table = new TokenTable(
    [{ principal: 'ci', name: 'CI bot', roles: ['operator'], tokenSha256: sha256Hex('ci-token') }],
    TOKEN,
  );
  expect(table.lookup('ci-token', 'cli')).toEqual({
    id: 'ci',
    name: 'CI bot',
    roles: ['operator'],
    method: 'cli',
    authenticatedBy: 'token',
  });
  expect(table.lookup(TOKEN, 'api')).toEqual({
    id: 'api-token',
    name: 'CAIRN_API_TOKEN',
    roles: ['admin'],
    method: 'api',
    authenticatedBy: 'shared-token',
  });
  expect(table.lookup('ci-token ', 'api')).toBeUndefined();
});

test('roles: admin holds all, any role reads, unknown names are dropped, unlisted routes need admin', () => {
  expect(grants(['admin'], 'approver')).toBe(true);
  expect(grants(['approver'], 'viewer')).toBe(true);
  expect(grants(['viewer'], 'operator')).toBe(false);
  expect(grants([], 'viewer')).toBe(false);
  expect(rolesFrom('viewer approver root')).toEqual(['viewer', 'approver']);
  expect(rolesFrom(['admin', 7])).toEqual(['admin']);
  expect(requiredRoles('POST', '/api/agents/a1/answers')).toEqual(['approver', 'operator']);
  expect(requiredRoles('HEAD', '/api/agents/a1')).toEqual(['viewer']);
  expect(requiredRoles('DELETE', '/api/agents/a1')).toEqual(['admin']);
  expect(requiredRoles('GET', '/api/secret-new-route')).toEqual(['admin']);
});
