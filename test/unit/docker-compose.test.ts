/**
 * docker-compose.yml cannot run here (no Docker engine), so its structure is checked: the
 * services, their ports, pinned image tags, entry points the build emits, and environment variables
 * that the configuration schema actually reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { ENV_NAMES } from '../../config/config';

const ROOT = join(__dirname, '..', '..');

const Service = z.object({
  image: z.string().optional(),
  build: z.union([z.string(), z.object({ context: z.string() })]).optional(),
  command: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  ports: z.array(z.string()).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  volumes: z.array(z.string()).optional(),
});
const Compose = z.object({
  services: z.record(z.string(), Service),
  volumes: z.record(z.string(), z.null()).optional(),
});

const compose = Compose.parse(parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')));
const services = compose.services;
/** The folders `npm run build` compiles into dist/ (tsconfig.build.json). */
const built = (JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as { include: string[] }).include;
const CAIRN_SERVICES = ['cairn-setup', 'worker', 'web'];

test('has Temporal on PostgreSQL (schema and namespace set up), its UI, and Cairn worker and web built from the Dockerfile', () => {
  expect(Object.keys(services).sort()).toEqual([
    'cairn-setup',
    'postgresql',
    'temporal',
    'temporal-namespace',
    'temporal-schema',
    'temporal-ui',
    'web',
    'worker',
  ]);
  expect(services.temporal?.environment?.POSTGRES_SEEDS).toBe('postgresql');
  for (const name of CAIRN_SERVICES) expect(services[name]?.build).toBe('.');
});

test('publishes gRPC 7233, the UI on 8233 and the web app on 3000', () => {
  expect(services.temporal?.ports).toEqual(['7233:7233']);
  expect(services['temporal-ui']?.ports).toEqual(['8233:8080']);
  expect(services.web?.ports).toEqual([`${services.web?.environment?.CAIRN_HTTP_PORT}:3000`]);
});

test('every image tag is pinned to a version, including the Dockerfile base', () => {
  const images = Object.values(services).flatMap((s) => (s.image ? [s.image] : []));
  const from = /^FROM\s+(\S+)/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
  expect(images.length).toBe(5);
  for (const image of [...images, from ?? 'missing FROM']) {
    expect(image).toMatch(/^[\w./-]+:\d+(\.\d+)+[\w.-]*$/);
  }
});

test('Cairn services run node on a file of the build and set only variables the config schema reads', () => {
  for (const name of CAIRN_SERVICES) {
    // node itself, not npm, so the container's SIGTERM reaches Cairn; a compiled entry point.
    const [node, entry, ...rest] = services[name]?.command ?? [];
    expect([node, rest]).toEqual(['node', []]);
    const source = /^dist\/(.+)\.js$/.exec(entry ?? '')?.[1] ?? `not a dist/ file: ${entry}`;
    expect(existsSync(join(ROOT, `${source}.ts`))).toBe(true);
    expect(built).toContain(source.split('/')[0]);
    for (const variable of Object.keys(services[name]?.environment ?? {})) {
      expect(ENV_NAMES).toContain(variable);
    }
  }
});

test('Cairn starts only after the cluster is set up', () => {
  expect(services.worker?.depends_on?.['cairn-setup']?.condition).toBe('service_completed_successfully');
  expect(services.web?.depends_on?.['cairn-setup']?.condition).toBe('service_completed_successfully');
  expect(services['cairn-setup']?.depends_on?.['temporal-namespace']?.condition).toBe('service_completed_successfully');
  expect(services['temporal-namespace']?.depends_on?.temporal?.condition).toBe('service_started');
  expect(services.temporal?.depends_on?.['temporal-schema']?.condition).toBe('service_completed_successfully');
});

test('the workers and the web server share one named volume holding the workspace (uploads read by any worker)', () => {
  const { worker, web } = services;
  const workspace = worker?.environment?.CAIRN_WORKSPACE ?? 'unset';
  expect(web?.environment?.CAIRN_WORKSPACE).toBe(workspace);
  expect(web?.environment?.CAIRN_LEDGER_DIR).toBe(worker?.environment?.CAIRN_LEDGER_DIR);
  const mountOf = (volumes: string[] | undefined) =>
    (volumes ?? []).map((v) => v.split(':')).find(([, target]) => target && workspace.startsWith(`${target}/`));
  const [name, target] = mountOf(worker?.volumes) ?? [];
  expect(mountOf(web?.volumes)).toEqual([name, target]);
  expect(Object.keys(compose.volumes ?? {})).toContain(name);
});
