/**
 * docker-compose.yml runs what `npm run test:cluster` tested: the Temporal server image at the
 * version the suite builds (cluster/temporal-server.version), configured by the same template
 * and dynamic config files, its databases set up by the same schema script, and only variables
 * the template (or the server itself) reads. The compose file cannot run here (no Docker
 * engine); these checks keep it from drifting away from the tested cluster.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { CONFIG_TEMPLATE, DYNAMIC_CONFIG, SETUP_SCHEMA, TEMPORAL_SERVER_VERSION } from '../../cluster/pinned';
import { SERVER_ENV } from '../../cluster/temporal-service';

const ROOT = join(__dirname, '..', '..');

const Service = z.object({
  image: z.string().optional(),
  command: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  volumes: z.array(z.string()).optional(),
});
const compose = z
  .object({ services: z.record(z.string(), Service) })
  .parse(parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')));

const service = (name: string) => {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no ${name} service`);
  return found;
};

/** `./host:/container[:ro]` mounts as absolute host path → container path. */
const mounts = (name: string): Map<string, string> =>
  new Map(
    (service(name).volumes ?? []).map((v) => {
      const [host = '', container = ''] = v.split(':');
      return [resolve(ROOT, host), container];
    }),
  );

const template = readFileSync(CONFIG_TEMPLATE, 'utf8');
/** Every variable the template reads with `env "NAME"`. */
const templateVariables = new Set([...template.matchAll(/env "([A-Z0-9_]+)"/g)].map((m) => m[1]));

test('the suite pins a Temporal server version, and the build script builds that one', () => {
  expect(TEMPORAL_SERVER_VERSION).toMatch(/^1\.\d+\.\d+$/);
  const script = readFileSync(join(ROOT, 'scripts', 'ensure-temporal-server.sh'), 'utf8');
  expect(script).toContain('cluster/temporal-server.version');
  expect(script).toContain('readonly MODULE="go.temporal.io/server"');
  expect(script).toContain('"$MODULE/cmd/server@v$version"');
});

test('compose runs the Temporal server image and admin tools at the tested version', () => {
  expect(service('temporal').image).toBe(`temporalio/server:${TEMPORAL_SERVER_VERSION}`);
  expect(service('temporal-schema').image).toBe(`temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`);
  expect(service('temporal-namespace').image).toBe(`temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`);
  const images = Object.values(compose.services).flatMap((s) => (s.image ? [s.image] : []));
  expect(images.filter((i) => i.includes('auto-setup'))).toEqual([]);
});

test('compose configures the server with the tested template and dynamic config, as the suite does', () => {
  const env = service('temporal').environment ?? {};
  const mounted = mounts('temporal');
  expect(mounted.get(CONFIG_TEMPLATE)).toBe(env.TEMPORAL_SERVER_CONFIG_FILE_PATH);
  expect(mounted.get(DYNAMIC_CONFIG)).toBe(env.DYNAMIC_CONFIG_FILE_PATH);
  expect(env.TEMPORAL_ALLOW_NO_AUTH).toBe(SERVER_ENV.TEMPORAL_ALLOW_NO_AUTH);
  expect(template.split('\n')[0]).toBe('# enable-template');
  expect(template).toContain('env "DYNAMIC_CONFIG_FILE_PATH"');
});

test('compose sets only variables the template or the server reads', () => {
  const env = service('temporal').environment ?? {};
  const known = new Set([...templateVariables, ...Object.keys(SERVER_ENV)]);
  expect(Object.keys(env).filter((name) => !known.has(name))).toEqual([]);
  expect(Object.keys(env)).toEqual(expect.arrayContaining(['POSTGRES_SEEDS', 'POSTGRES_USER', 'POSTGRES_PWD']));
});

test('compose sets up the databases with the tested schema script, with the same variables', () => {
  const schema = service('temporal-schema');
  const path = mounts('temporal-schema').get(SETUP_SCHEMA);
  expect(path).toBeDefined();
  expect(schema.command).toEqual(['sh', path]);
  const temporalEnv = service('temporal').environment ?? {};
  for (const [name, value] of Object.entries(schema.environment ?? {})) {
    expect(templateVariables).toContain(name);
    expect(temporalEnv[name]).toBe(value);
  }
});
