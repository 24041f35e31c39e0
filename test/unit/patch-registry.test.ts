/**
 * The patch registry (workflows/base/patches.ts) is the only place a replay gate's id is written:
 * every `patched()` / `deprecatePatch()` in workflow code passes `PATCHES.<name>`, no workflow
 * file spells a registered id, each patch's stage matches how its call sites use it, and each
 * `since` agrees with the kept histories (no history of an earlier release carries its marker,
 * and every gate still in use has a kept history that took its new path).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { git, versionChanges } from '../../scripts/fixture-git';
import { releaseCommits } from '../../scripts/fixture-freezes';
import { compareReleases, currentVersion, isRelease } from '../../scripts/fixture-releases';
import { ALL_PATCHES, PATCH_INFO, type PatchInfo } from '../../workflows/base/patches';
import { savedHistories } from '../harness/histories';

const ROOT = join(__dirname, '..', '..');
const WORKFLOWS = join(ROOT, 'workflows');
/**
 * How many `patched()` call sites the workflow code has: one per path a released version's
 * histories or running agents may take (CONTRIBUTING.md, "Gates and releases"). A new one
 * raises it on purpose, with the release that needs it (the 29th: cairn-tool-regex-own-only, for
 * 0.3.0's histories, whose catalogues carried user and MCP tools' expressions into workflow code).
 */
const PATCHED_CALL_SITES = 29;
/** The registry's files: the only place ids are written. */
const REGISTRY = ['patches.ts', 'patches-0.3.ts', 'patches-retired.ts'].map((f) => join(WORKFLOWS, 'base', f));

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

test('the registry: unique ids, and each stage as its call sites use it', () => {
  const ids = ALL_PATCHES.map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  const uses = (fn: PatchCall['fn'], name: string) =>
    files.some(({ source }) => patchCalls(source).some((c) => c.fn === fn && c.argument === `PATCHES.${name}`));
  const wrong = Object.entries(PATCH_INFO as Record<string, PatchInfo>).flatMap(([name, info]) => {
    const stage = uses('patched', name) ? 'patched' : uses('deprecatePatch', name) ? 'deprecated' : 'retired';
    return stage === info.stage ? [] : [`${name}: stage ${info.stage}, but its call sites make it ${stage}`];
  });
  expect(wrong).toEqual([]);
});

/** The releases whose kept histories carry each patch marker, and how many histories each version keeps. */
function markerReleases(): { markers: Map<string, Set<string>>; kept: Map<string, number> } {
  const markers = new Map<string, Set<string>>();
  const kept = new Map<string, number>();
  for (const { release, history } of savedHistories()) {
    kept.set(release, (kept.get(release) ?? 0) + 1);
    for (const event of history.events ?? []) {
      const marker = event.markerRecordedEventAttributes;
      const data =
        marker?.markerName === 'core_patch' ? marker.details?.['patch-data']?.payloads?.[0]?.data : undefined;
      if (!data) continue;
      const { id } = JSON.parse(Buffer.from(data).toString('utf8')) as { id: string };
      markers.set(id, (markers.get(id) ?? new Set()).add(release));
    }
  }
  return { markers, kept };
}

/** What is wrong with a gate's `since`, given the kept histories (pure, so a test can plant mistakes). */
function sinceProblems(
  gate: Pick<PatchInfo, 'id' | 'since'>,
  markers: ReadonlyMap<string, ReadonlySet<string>>,
  kept: ReadonlyMap<string, number>,
  version: string,
): string[] {
  if (!isRelease(gate.since) || compareReleases(gate.since, version) >= 0 || !kept.has(gate.since))
    return [`${gate.id}: since ${gate.since} is not a recorded release before ${version}`];
  const early = [...(markers.get(gate.id) ?? [])].filter((r) => compareReleases(r, gate.since) <= 0);
  return early.map((r) => `${gate.id}: kept histories of ${r} carry its marker, so none of ${r} needs its old path`);
}

const { markers, kept } = markerReleases();
const inUse = ALL_PATCHES.filter((p) => p.stage !== 'retired');

test('each gate in use names a recorded release whose kept histories lack its marker (they took its old path)', () => {
  const unknown = [...markers.keys()].filter((id) => !ALL_PATCHES.some((p) => p.id === id));
  expect(unknown).toEqual([]); // a marker in a kept history whose gate is not in the registry
  expect(inUse.flatMap((p) => sinceProblems(p, markers, kept, currentVersion()))).toEqual([]);
});

test('the since check fails a gate named for an unrecorded or development version, or for a release whose histories carry its marker', () => {
  const k = new Map([
    ['0.1.0', 2],
    ['0.2.0', 1],
    ['0.4.0-dev', 3],
  ]);
  const m = new Map([['g', new Set(['0.2.0', '0.4.0-dev'])]]);
  expect(sinceProblems({ id: 'g', since: '0.1.0' }, m, k, '0.4.0-dev')).toEqual([]);
  expect(sinceProblems({ id: 'g', since: '0.2.0' }, m, k, '0.4.0-dev')).toEqual([
    'g: kept histories of 0.2.0 carry its marker, so none of 0.2.0 needs its old path',
  ]);
  expect(sinceProblems({ id: 'g', since: '0.3.0' }, m, k, '0.4.0-dev')).toEqual([
    'g: since 0.3.0 is not a recorded release before 0.4.0-dev',
  ]);
  expect(sinceProblems({ id: 'g', since: '0.4.0-dev' }, m, k, '0.4.0-dev')).toHaveLength(1);
});

test('every gate in use has a kept history that took its new path, or a test that records one', () => {
  const unrecorded = inUse.filter((p) => !markers.has(p.id) && !p.replayedBy);
  expect(unrecorded.map((p) => p.id)).toEqual([]);
});

test('the release a gate is kept for shipped without it, and the patched() call sites are the ones released histories need', () => {
  const releases = releaseCommits(versionChanges(ROOT));
  const shippedWith = inUse.filter((p) => {
    const commit = releases.get(p.since)?.code;
    return commit === undefined || git(ROOT, ['grep', '-q', '-F', p.id, commit, '--', 'workflows']) !== undefined;
  });
  expect(shippedWith.map((p) => `${p.id} (since ${p.since})`)).toEqual([]);
  const sites = files.flatMap(({ source }) => patchCalls(source).filter((c) => c.fn === 'patched'));
  expect(sites).toHaveLength(PATCHED_CALL_SITES);
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
