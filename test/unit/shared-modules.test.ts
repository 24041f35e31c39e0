/**
 * The workflow modules the worker shares between all workflows (workflows/shared-modules.ts):
 * every module under workflows/base/ and workflows/model/, as workflows/shared-list.ts spells
 * them out. Each must be safe to share — it imports only zod and other shared modules (never
 * `@temporalio/*`, whose state is per workflow, nor anything else), keeps no module-level state
 * (`let`, `var`, a global RegExp), and its schemas must keep working once the SDK has
 * deep-frozen them.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { z } from 'zod';
import { sharedModules, sharedSchemas } from '../../workflows/shared-modules';
import { shareablePattern } from '../../workflows/warm-schemas';
import { agentInputSchema } from '../../workflows/model/agent/agent-input';
import { planJsonSchema, planSchema } from '../../workflows/model/plan/plan-schema';
import { renderSharedList, sharedModulePaths, SHARED_LIST } from '../../scripts/shared-list';

const WORKFLOWS = resolve(__dirname, '..', '..', 'workflows');
const LISTS = [SHARED_LIST];

/** A module's runtime imports (type-only ones are erased) as written. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      const arg = node.arguments[0];
      found.push(arg && ts.isStringLiteral(arg) ? arg.text : '(computed)');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** What at a module's top level could hold state between workflows. */
function moduleState(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const problems: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    if (!(list.flags & ts.NodeFlags.Const)) problems.push(`${file}: a module-level let/var`);
    for (const declaration of list.declarations) {
      const init = declaration.initializer;
      if (init && ts.isRegularExpressionLiteral(init) && /\/[a-z]*[gy][a-z]*$/.test(init.text))
        problems.push(`${file}: a module-level global RegExp ${init.text}`);
    }
  }
  return problems;
}

/** The file a relative specifier of `from` names. */
function resolveFile(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  return ts.sys.fileExists(`${base}.ts`) ? `${base}.ts` : join(base, 'index.ts');
}

const listed = new Set(LISTS.flatMap((list) => runtimeImports(list).map((s) => resolveFile(list, s))));

test('the shared list is not empty and every module it lists exists', () => {
  expect(listed.size).toBeGreaterThan(50);
  for (const file of listed) expect(ts.sys.fileExists(file)).toBe(true);
});

test('the shared list is every module of workflows/base/ and workflows/model/, and no other', () => {
  // Written by scripts/shared-list.ts: a module added to or moved out of those folders fails here until it is run.
  expect(readFileSync(SHARED_LIST, 'utf8')).toBe(renderSharedList());
  const fromFolders = sharedModulePaths().map((p) => join(WORKFLOWS, `${p}.ts`));
  expect([...listed].sort()).toEqual(fromFolders.sort());
  expect(fromFolders.every((f) => /\/workflows\/(base|model)\//.test(f))).toBe(true);
});

test('every shared module imports only zod and other shared modules, and keeps no module-level state', () => {
  const problems: string[] = [];
  for (const file of listed) {
    for (const specifier of runtimeImports(file)) {
      if (specifier === 'zod') continue;
      if (!specifier.startsWith('.')) problems.push(`${file} imports ${specifier}`);
      else if (!listed.has(resolveFile(file, specifier)))
        problems.push(`${file} imports ${specifier}, which is not listed as shared`);
    }
    problems.push(...moduleState(file));
  }
  expect(problems).toEqual([]);
});

test('the scan sees what it must refuse: a Temporal import, module-level let, a global RegExp', () => {
  // Negative control: the rules above, on modules that break them.
  const threadRun = join(WORKFLOWS, 'thread', 'thread-run.ts');
  expect(runtimeImports(threadRun)).toContain('@temporalio/workflow');
  const validate = join(WORKFLOWS, 'step', 'validate-arguments.ts');
  expect(listed.has(validate)).toBe(false); // it keeps a per-workflow cache
  const templates = join(WORKFLOWS, 'model', 'prompts', 'templates.ts');
  expect(listed.has(templates)).toBe(true);
  expect(moduleState('x.ts', 'let n = 0;\nconst R = /a/g;\nconst ok = /a/;\n')).toHaveLength(2);
});

/** The SDK's freeze of a shared module (reusable V8 context): own properties of objects, recursively; functions frozen, not walked. */
function deepFreeze(value: unknown, seen = new WeakSet<object>()): void {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return;
  if (seen.has(value) || Object.isFrozen(value)) return;
  seen.add(value);
  if (typeof value === 'object')
    for (const key of Reflect.ownKeys(value)) {
      try {
        deepFreeze((value as Record<string | symbol, unknown>)[key], seen);
      } catch {
        // as the SDK: some objects cannot be frozen
      }
    }
  Object.freeze(value);
}

test('frozen as the SDK freezes them, the shared schemas still parse, refuse, extend and describe themselves', () => {
  expect(sharedSchemas).toBeGreaterThan(300);
  for (const module of sharedModules) deepFreeze({ exports: module });
  expect(Object.isFrozen(agentInputSchema)).toBe(true);

  const parsed = agentInputSchema.parse({ task: 'Compare two note apps' });
  expect(parsed.task).toBe('Compare two note apps');
  expect(agentInputSchema.safeParse({ task: 42 }).success).toBe(false);
  // A step id pattern (a regex check, reset before each test): passes, then refuses, then passes.
  const plan = { task: 'Compare', steps: [{ id: 's1', title: 'Look', description: 'Look it up', depends_on: [] }] };
  expect(planSchema.safeParse(plan).success).toBe(true);
  const badId = { steps: [{ ...plan.steps[0], id: 'not an id!' }] };
  expect(planSchema.safeParse(badId).success).toBe(false);
  expect(planSchema.safeParse(plan).success).toBe(true);
  // New schemas built from frozen ones, per workflow.
  const extended = agentInputSchema.extend({ note: z.string().optional() });
  expect(extended.parse({ task: 't', note: 'n' }).note).toBe('n');
  expect(agentInputSchema.optional().parse(undefined)).toBeUndefined();
  expect(JSON.stringify(planJsonSchema())).toContain('"pattern"');
});

test('a shareable pattern tests like its RegExp and takes a lastIndex once frozen', () => {
  const pattern: RegExp = shareablePattern(/^s\d+$/g);
  Object.freeze(pattern);
  expect(pattern.test('s12')).toBe(true);
  expect(pattern.test('s12')).toBe(true); // a frozen /g RegExp would have moved on (or thrown)
  expect(pattern.test('x')).toBe(false);
  expect(() => {
    pattern.lastIndex = 0;
  }).not.toThrow();
  expect(pattern.source).toBe('^s\\d+$');
  expect(pattern.toString()).toBe('/^s\\d+$/g');
});
