/**
 * Writes workflows/shared-list.ts, the modules the worker shares between all workflows: every
 * module under workflows/base/ and workflows/model/, and nothing else. The folders are the list;
 * this file only spells it out for the bundler, which needs static imports.
 *
 *   npx tsx scripts/shared-list.ts           write it
 *   npx tsx scripts/shared-list.ts --check   exit 1 when it is not what the folders say
 *
 * test/unit/shared-modules.test.ts checks the same, and that every listed module may be shared.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const WORKFLOWS = join(ROOT, 'workflows');
/** The folders of workflows/ whose every module is shared. */
export const SHARED_FOLDERS = ['base', 'model'] as const;
export const SHARED_LIST = join(WORKFLOWS, 'shared-list.ts');

/** Every module under the shared folders, as paths from workflows/ without `.ts`, sorted. */
export function sharedModulePaths(workflows = WORKFLOWS): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
        found.push(relative(workflows, path).slice(0, -3));
    }
  };
  for (const folder of SHARED_FOLDERS) walk(join(workflows, folder));
  return found.map((p) => p.split('\\').join('/')).sort();
}

/** `model/plan/plan-schema` → `modelPlanPlanSchema`. */
function bindingOf(path: string): string {
  return path
    .split(/[/\-.]/)
    .map((word, i) => (i === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('')
    .replace(/[^A-Za-z0-9_]/g, '_');
}

/** The text workflows/shared-list.ts must have. */
export function renderSharedList(paths = sharedModulePaths()): string {
  const imports = paths.map((p) => `import * as ${bindingOf(p)} from './${p}';`);
  return [
    '/**',
    ' * The modules the worker shares between all workflows: every module under workflows/base/ and',
    ' * workflows/model/ (see workflows/shared-modules.ts for why and what may be shared). Written by',
    ' * scripts/shared-list.ts from the folders: do not edit, run `npx tsx scripts/shared-list.ts`.',
    ' */',
    ...imports,
    '',
    '/** Every shared module of Cairn, in path order. */',
    'export const sharedList: readonly unknown[] = [',
    ...paths.map((p) => `  ${bindingOf(p)},`),
    '];',
    '',
  ].join('\n');
}

function main(): void {
  const want = renderSharedList();
  let have = '';
  try {
    have = readFileSync(SHARED_LIST, 'utf8');
  } catch {
    // absent: written below, or reported by --check
  }
  if (process.argv.includes('--check')) {
    if (have !== want) {
      console.error(
        'shared-list: workflows/shared-list.ts is not what workflows/base/ and model/ hold; run npx tsx scripts/shared-list.ts',
      );
      process.exit(1);
    }
    console.log(`shared-list: ${sharedModulePaths().length} shared modules, as the folders say.`);
    return;
  }
  if (have !== want) writeFileSync(SHARED_LIST, want);
  console.log(`shared-list: ${sharedModulePaths().length} shared modules written to workflows/shared-list.ts.`);
}

if (require.main === module) main();
