/**
 * Confines file tools to the workspace: relative paths only, no `..` escape, and no symlink
 * that leads outside (checked on the real path of the target or, for new files, its folder).
 */
import { mkdir, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Resolves `path` inside `workspace` or throws an Error saying why not. */
export async function resolveInWorkspace(workspace: string, path: string): Promise<string> {
  if (isAbsolute(path)) throw new Error(`"${path}" is absolute; give a path relative to the workspace`);
  await mkdir(workspace, { recursive: true });
  const root = await realpath(workspace);
  const target = resolve(root, path);
  if (!inside(root, target)) throw new Error(`"${path}" leaves the workspace`);
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    // Not there yet: its nearest existing folder must still be inside.
    real = resolve(await realpath(dirname(target)).catch(() => root), target.slice(dirname(target).length + 1));
  }
  if (!inside(root, real)) throw new Error(`"${path}" leads outside the workspace through a symbolic link`);
  return real;
}
