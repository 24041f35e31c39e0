/**
 * Confines file tools to the workspace: relative paths only, no `..` escape, and no symlink
 * that leads outside (checked on the real path of the target or, for new files, its folder).
 */
import { lstat, mkdir, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The real path of `target`, which may not exist yet: its nearest existing ancestor is
 * resolved (following symlinks) and the missing rest appended.
 */
async function realOf(target: string): Promise<string> {
  const missing: string[] = [];
  let existing = target;
  for (;;) {
    try {
      return join(await realpath(existing), ...missing);
    } catch {
      // A link whose target is missing could still lead out once written through.
      if ((await lstat(existing).catch(() => undefined))?.isSymbolicLink()) {
        throw new Error(`"${existing}" is a symbolic link to nothing; refused`);
      }
      const parent = dirname(existing);
      if (parent === existing) return target;
      missing.unshift(basename(existing));
      existing = parent;
    }
  }
}

/** Resolves `path` inside `workspace` or throws an Error saying why not. */
export async function resolveInWorkspace(workspace: string, path: string): Promise<string> {
  if (isAbsolute(path)) throw new Error(`"${path}" is absolute; give a path relative to the workspace`);
  await mkdir(workspace, { recursive: true });
  const root = await realpath(workspace);
  const target = resolve(root, path);
  if (!inside(root, target)) throw new Error(`"${path}" leaves the workspace`);
  const real = await realOf(target);
  if (!inside(root, real)) throw new Error(`"${path}" leads outside the workspace through a symbolic link`);
  return real;
}
