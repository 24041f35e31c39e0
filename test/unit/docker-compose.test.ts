/**
 * docker-compose.yml cannot run here (no Docker engine), so its structure is checked: the
 * services, their ports, pinned image tags, commands that exist, and environment variables
 * that the configuration schema actually reads.
 */
import { readFileSync } from 'node:fs';
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
});
const Compose = z.object({ services: z.record(z.string(), Service) });

const compose = Compose.parse(parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')));
const services = compose.services;
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;
const CAIRN_SERVICES = ['cairn-setup', 'worker', 'web'];

test('has Temporal on PostgreSQL, its UI, and Cairn worker and web built from the Dockerfile', () => {
  expect(Object.keys(services).sort()).toEqual([
    'cairn-setup',
    'postgresql',
    'temporal',
    'temporal-ui',
    'web',
    'worker',
  ]);
  expect(services.temporal?.environment?.DB).toMatch(/^postgres/);
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
  expect(images.length).toBe(3);
  for (const image of [...images, from ?? 'missing FROM']) {
    expect(image).toMatch(/^[\w./-]+:\d+(\.\d+)+[\w.-]*$/);
  }
});

test('Cairn services run npm scripts that exist and set only variables the config schema reads', () => {
  for (const name of CAIRN_SERVICES) {
    const [npm, run, script] = services[name]?.command ?? [];
    expect([npm, run]).toEqual(['npm', 'run']);
    expect(Object.keys(scripts)).toContain(script);
    for (const variable of Object.keys(services[name]?.environment ?? {})) {
      expect(ENV_NAMES).toContain(variable);
    }
  }
});

test('Cairn starts only after the cluster is set up', () => {
  expect(services.worker?.depends_on?.['cairn-setup']?.condition).toBe('service_completed_successfully');
  expect(services.web?.depends_on?.['cairn-setup']?.condition).toBe('service_completed_successfully');
  expect(services['cairn-setup']?.depends_on?.temporal?.condition).toBe('service_healthy');
});
