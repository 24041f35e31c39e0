/**
 * The patch registry (workflows/patches.ts) is the only place a replay gate's id is written:
 * every `patched()` / `deprecatePatch()` in workflow code passes `PATCHES.<name>`, no workflow
 * file spells a registered id, each patch's stage matches how its call sites use it, and each
 * `since` agrees with the kept histories (no history of an earlier release carries its marker,
 * and every gate still in use has a kept history that took its new path).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compareReleases, currentRelease, isRelease } from '../../scripts/fixture-releases';
import { ALL_PATCHES, PATCH_INFO, type PatchInfo } from '../../workflows/patches';
import { savedHistories } from '../harness/histories';

const WORKFLOWS = join(__dirname, '..', '..', 'workflows');
/** The registry's files: the only place ids are written. */
const REGISTRY = [join(WORKFLOWS, 'patches.ts'), join(WORKFLOWS, 'patches-0.3.ts')];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !REGISTRY.includes(path) ? [path] : [];
  });
}

/** A call of `patched` or `deprecatePatch`, with the argument as written. */
interface PatchCall {
  fn: 'patched' | 'deprecatePatch';
  argument: string;
}

/** The patch calls in a source text (comments left out). */
export function patchCalls(source: string): PatchCall[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  return [...code.matchAll(/\b(patched|deprecatePatch)\(\s*([^)]*?)\s*\)/g)].map((m) => ({
    fn: m[1] as PatchCall['fn'],
    argument: m[2] ?? '',
  }));
}

/** What is wrong with a source text's patch calls and id literals (empty when nothing). */
export function strayPatches(source: string): string[] {
  const out: string[] = [];
  for (const call of patchCalls(source)) {
    const name = /^PATCHES\.(\w+)$/.exec(call.argument)?.[1];
    if (name === undefined) out.push(`${call.fn}(${call.argument}): not an id from the registry (PATCHES.<name>)`);
    else if (!(name in PATCH_INFO)) out.push(`${call.fn}(${call.argument}): no such patch in the registry`);
  }
  for (const { id } of ALL_PATCHES) {
    if (source.includes(`'${id}'`) || source.includes(`"${id}"`) || source.includes(`\`${id}\``)) {
      out.push(`the id '${id}' is written outside the registry`);
    }
  }
  return out;
}

const files = sourceFiles(WORKFLOWS).map((path) => ({
  path: relative(WORKFLOWS, path),
  source: readFileSync(path, 'utf8'),
}));

test('the scan finds a stray id: a literal, an unregistered name, a registered id spelled out', () => {
  expect(strayPatches(`if (patched('x')) run();`)).toEqual([
    `patched('x'): not an id from the registry (PATCHES.<name>)`,
  ]);
  expect(strayPatches(`deprecatePatch(PATCHES.nope);`)).toEqual([
    'deprecatePatch(PATCHES.nope): no such patch in the registry',
  ]);
  expect(strayPatches(`const GATE = 'cairn-nested-budget';\nif (patched(GATE)) run();`)).toEqual([
    'patched(GATE): not an id from the registry (PATCHES.<name>)',
    "the id 'cairn-nested-budget' is written outside the registry",
  ]);
  expect(strayPatches(`// patched('x') in a comment\nif (patched(PATCHES.nestedBudget)) run();`)).toEqual([]);
});

test('every patch call in workflow code names a registered patch, and no workflow file spells an id', () => {
  const found = files.flatMap(({ path, source }) => strayPatches(source).map((s) => `${path}: ${s}`));
  expect(found).toEqual([]);
});

test('the registry: unique ids, a release for each, none newer than this one, and each stage as its call sites use it', () => {
  const ids = ALL_PATCHES.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  const release = currentRelease();
  const uses = (fn: PatchCall['fn'], name: string) =>
    files.some(({ source }) => patchCalls(source).some((c) => c.fn === fn && c.argument === `PATCHES.${name}`));
  const wrong = Object.entries(PATCH_INFO as Record<string, PatchInfo>).flatMap(([name, info]) => {
    const problems: string[] = [];
    if (!isRelease(info.since) || compareReleases(info.since, release) > 0) problems.push(`since ${info.since}`);
    const stage = uses('patched', name) ? 'patched' : uses('deprecatePatch', name) ? 'deprecated' : 'retired';
    if (stage !== info.stage) problems.push(`stage ${info.stage}, but its call sites make it ${stage}`);
    return problems.map((p) => `${name}: ${p}`);
  });
  expect(wrong).toEqual([]);
});

/** The releases whose kept histories carry each patch marker. */
function markerReleases(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const { release, history } of savedHistories()) {
    for (const event of history.events ?? []) {
      const marker = event.markerRecordedEventAttributes;
      const data =
        marker?.markerName === 'core_patch' ? marker.details?.['patch-data']?.payloads?.[0]?.data : undefined;
      if (!data) continue;
      const { id } = JSON.parse(Buffer.from(data).toString('utf8')) as { id: string };
      out.set(id, (out.get(id) ?? new Set()).add(release));
    }
  }
  return out;
}

test("each patch's release agrees with the kept histories, and every gate in use has one that took its new path", () => {
  const seen = markerReleases();
  const unknown = [...seen.keys()].filter((id) => !ALL_PATCHES.some((p) => p.id === id));
  expect(unknown).toEqual([]); // a marker in a kept history whose gate is not in the registry
  const tooEarly = ALL_PATCHES.flatMap((p) =>
    [...(seen.get(p.id) ?? [])].filter((r) => compareReleases(r, p.since) < 0).map((r) => `${p.id} in ${r}`),
  );
  expect(tooEarly).toEqual([]);
  const unrecorded = ALL_PATCHES.filter((p) => p.stage !== 'retired' && !seen.has(p.id) && !p.replayedBy);
  expect(unrecorded.map((p) => p.id)).toEqual([]);
});

test('a gate whose new path no kept history can hold names a test that records and replays it', () => {
  const root = join(__dirname, '..', '..');
  const elsewhere = ALL_PATCHES.filter((p) => p.replayedBy !== undefined);
  const unproven = elsewhere.filter((p) => {
    const file = join(root, p.replayedBy ?? '');
    return !existsSync(file) || !/runReplayHistor(y|ies)\(/.test(readFileSync(file, 'utf8'));
  });
  expect(unproven.map((p) => `${p.id}: ${p.replayedBy}`)).toEqual([]);
});
