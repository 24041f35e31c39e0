/**
 * The lexical half of confining file tools to the workspace: a path the model gives must be
 * relative and must not climb out with `..`. What the path leads to on disk (symlinks) is
 * checked while it is opened, in workspace-files.ts.
 */
import { isAbsolute, normalize, relative, sep } from 'node:path';

/** The code of a path refused for leading outside the workspace (the HTTP API answers with it too). */
export const PATH_REFUSED = 'PATH_REFUSED';

/** A path refused for leading outside the workspace; its message starts with the code, for the model. */
export class PathRefusedError extends Error {
  readonly code = PATH_REFUSED;
  constructor(why: string) {
    super(`${PATH_REFUSED}: ${why}`);
  }
}

/** Whether `path` is `root` or lies under it (both absolute). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The components of `path` below the workspace root (none for the root itself), with `.` and
 * `..` resolved lexically, so no `..` ever reaches the file system.
 * @throws PathRefusedError saying why when `path` is absolute or leaves the workspace.
 */
export function workspaceParts(path: string): string[] {
  if (isAbsolute(path)) throw new PathRefusedError(`"${path}" is absolute; give a path relative to the workspace`);
  const normal = normalize(path);
  if (normal === '..' || normal.startsWith(`..${sep}`)) throw new PathRefusedError(`"${path}" leaves the workspace`);
  return normal.split(sep).filter((part) => part !== '' && part !== '.');
}
