/**
 * Imports a user module (`CAIRN_GRAPHS`, `CAIRN_AGENTS`) and returns its default export, an
 * array: the part the graph and definition loaders share. Loaded with `import()`: TypeScript
 * works under tsx (the CLI, `npm start`, `npm run web`) and jest; compiled JavaScript anywhere.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The default array of the module at `modulePath` (relative to `cwd`, or absolute).
 * @param where how messages name the module, e.g. `graph module "g.ts" (CAIRN_GRAPHS)`.
 * @param usage what the default export should look like, for the message when it is not an array.
 * @param fail makes the loader's own error from a message (and its cause).
 * @throws what `fail` makes when the module is missing, fails to load or exports no default array.
 */
export async function loadDefaultArray(
  modulePath: string,
  cwd: string,
  where: string,
  usage: string,
  fail: (message: string, cause?: unknown) => Error,
): Promise<unknown[]> {
  const file = resolve(cwd, modulePath);
  if (!existsSync(file)) throw fail(`${where} not found (looked at ${file})`);
  let namespace: unknown;
  try {
    namespace = await import(file);
  } catch (err) {
    throw fail(`${where} failed to load: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  const values = defaultArray(namespace);
  if (!values) throw fail(`${where} must export a default array ${usage}`);
  return values;
}

/**
 * The module's default export when it is an array. A CommonJS build (or a loader's interop)
 * may wrap the namespace once more as `default.default`: looked through once.
 */
function defaultArray(namespace: unknown): unknown[] | undefined {
  const first = isRecord(namespace) ? namespace['default'] : undefined;
  if (Array.isArray(first)) return first as unknown[];
  const second = isRecord(first) ? first['default'] : undefined;
  return Array.isArray(second) ? (second as unknown[]) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
