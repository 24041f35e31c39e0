/**
 * The Dockerfile cannot be built here (no Docker engine), so its structure is checked: a build
 * stage that runs `npm run build` on every folder the build compiles, and a runtime stage on
 * Node 24 with production dependencies and dist/ only, whose command is node itself (PID 1, so
 * SIGTERM reaches Cairn) on a compiled entry point — no npm, no tsx.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const instructions = dockerfile
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
/** The instructions of each stage, split at FROM. */
const stages = instructions.reduce<string[][]>((acc, line) => {
  if (line.startsWith('FROM ')) acc.push([line]);
  else acc.at(-1)?.push(line);
  return acc;
}, []);
const [build = [], runtime = []] = stages;
const built = (JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as { include: string[] }).include;

test('two stages on the same pinned Node 24 image: build, then runtime', () => {
  expect(stages).toHaveLength(2);
  expect(build[0]).toMatch(/^FROM node:24\.\d+\.\d+-[\w-]+ AS build$/);
  expect(runtime[0]).toBe(build[0]?.replace(/ AS build$/, ''));
});

test('the build stage installs every dependency, copies every compiled folder and runs npm run build', () => {
  expect(build).toContain('RUN npm ci --ignore-scripts');
  expect(build).toContain('COPY tsconfig.json tsconfig.build.json ./');
  for (const folder of built) expect(build).toContain(`COPY ${folder} ./${folder}`);
  expect(build.at(-1)).toBe('RUN npm run build');
});

test('the runtime stage has production dependencies and the build only, and runs node on the compiled worker', () => {
  expect(runtime).toContain('RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force');
  expect(runtime.filter((line) => line.startsWith('COPY'))).toEqual([
    'COPY package.json package-lock.json ./',
    'COPY --from=build /app/dist ./dist',
  ]);
  expect(runtime).toContain('USER node');
  const cmd = runtime.at(-1) ?? '';
  expect(cmd).toBe('CMD ["node", "dist/worker/main.js"]');
  expect(existsSync(join(ROOT, 'worker', 'main.ts'))).toBe(true);
  expect(dockerfile).not.toMatch(/^\s*(CMD|ENTRYPOINT)\s.*\b(npm|tsx)\b/m);
});
