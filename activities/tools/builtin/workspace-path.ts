/**
 * The lexical half of confining file tools to the workspace: a path the model gives must be
 * relative and must not climb out with `..`. What the path leads to on disk (symlinks) is
 * checked while it is opened, in workspace-files.ts.
 */
import { isAbsolute, normalize, relative, sep } from 'node:path';

/** Whether `path` is `root` or lies under it (both absolute). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The components of `path` below the workspace root (none for the root itself), with `.` and
 * `..` resolved lexically, so no `..` ever reaches the file system.
 * @throws Error saying why when `path` is absolute or leaves the workspace.
 */
export function workspaceParts(path: string): string[] {
  if (isAbsolute(path)) throw new Error(`"${path}" is absolute; give a path relative to the workspace`);
  const normal = normalize(path);
  if (normal === '..' || normal.startsWith(`..${sep}`)) throw new Error(`"${path}" leaves the workspace`);
  return normal.split(sep).filter((part) => part !== '' && part !== '.');
}
