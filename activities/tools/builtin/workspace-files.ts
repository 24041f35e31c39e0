/**
 * Workspace file I/O that a concurrent symlink swap cannot lead outside the workspace. A path is
 * walked one component at a time from the workspace root: each component is opened relative to
 * its parent folder's open descriptor, and each descriptor's real path is checked to lie inside
 * the workspace before it is used (so symlinks that stay inside still work).
 *
 * On Linux "relative to the descriptor" is `/proc/self/fd/<n>/<name>`, which the kernel resolves
 * from the folder that descriptor holds, whatever has since been renamed or swapped on disk; and
 * a descriptor's real path is `/proc/self/fd/<n>` read as a link. Without /proc (other systems)
 * the walk goes by real path and each descriptor must be the very file (device and inode) found
 * at the checked path: content outside is still never read or written, but a swap timed between
 * check and use could create an empty file or folder outside, or list a folder's names there.
 *
 * Errors name paths as the model gave them (relative), never where the workspace is.
 */
import { constants, existsSync, type Dirent } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside, PathRefusedError, workspaceParts } from './workspace-path';

const { O_CREAT, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = constants;
/** O_NONBLOCK: opening a FIFO must not hang the tool; it changes nothing for files and folders. */
const FOLDER = O_RDONLY | O_DIRECTORY | O_NONBLOCK;

/** How a walk names what it opens (a choice for tests; the default suits the system). */
export interface WalkOptions {
  /** Open relative to descriptors through `/proc/self/fd` (default: when it exists). */
  viaProcFd?: boolean;
}

/** A failure whose message is safe to show the model; `code` is the system's error code. */
class WorkspaceError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** One walk: the workspace's real path and how paths are named. */
interface Walk {
  root: string;
  viaProcFd: boolean;
}

/** A file or folder opened inside the workspace, with its real path as checked. */
interface Opened {
  handle: FileHandle;
  real: string;
}

let procFd: boolean | undefined;

const fdPath = (handle: FileHandle) => `/proc/self/fd/${handle.fd}`;

/** The system error code of `err` (not `instanceof Error`: it may come from another realm). */
function codeOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

/** Turns a file-system error about `shown` into a message without absolute paths. */
function failure(err: unknown, shown: string): Error {
  if (err instanceof WorkspaceError || err instanceof PathRefusedError) return err;
  const code = codeOf(err);
  const say = (what: string) => new WorkspaceError(`"${shown}" ${what}`, code);
  if (code === 'ENOENT') return say('does not exist in the workspace');
  if (code === 'ENOTDIR') return say('is not a folder in the workspace');
  if (code === 'EISDIR') return say('is a folder');
  if (code === 'ELOOP') return say('is a symbolic link; refused');
  if (code === 'EACCES' || code === 'EPERM') return say('cannot be accessed (permission denied)');
  return say(`failed (${code ?? 'unexpected error'})`);
}

const leadsOutside = (shown: string) =>
  new PathRefusedError(`"${shown}" leads outside the workspace through a symbolic link`);

/** The path naming `name` inside the opened folder `dir`. */
function childPath(walk: Walk, dir: Opened, name: string): string {
  return walk.viaProcFd ? `${fdPath(dir.handle)}/${name}` : join(dir.real, name);
}

/** The real path of the file `handle` holds, or undefined when `path` no longer names it. */
async function realOf(walk: Walk, handle: FileHandle, path: string): Promise<string | undefined> {
  if (walk.viaProcFd) return readlink(fdPath(handle));
  const real = await realpath(path);
  const [held, named] = await Promise.all([handle.stat(), stat(real)]);
  return held.dev === named.dev && held.ino === named.ino ? real : undefined;
}

/**
 * Opens `path` (in a checked folder) and checks where the descriptor really is. A symlink's
 * target is looked at first, so nothing outside is even opened when no one races; the check
 * after opening is the one that counts.
 */
async function openChecked(walk: Walk, path: string, flags: number, shown: string): Promise<Opened> {
  const target = await realpath(path).catch(() => undefined);
  if (target !== undefined && !isInside(walk.root, target)) throw leadsOutside(shown);
  const handle = await open(path, flags, 0o666).catch(async (err: unknown) => {
    const dangling = codeOf(err) === 'ENOENT' && (await lstat(path).catch(() => undefined))?.isSymbolicLink();
    throw dangling
      ? new WorkspaceError(`"${shown}" is a symbolic link to nothing; refused`, 'ENOENT')
      : failure(err, shown);
  });
  try {
    const real = await realOf(walk, handle, path).catch(() => undefined);
    if (real === undefined || !isInside(walk.root, real)) throw leadsOutside(shown);
    return { handle, real };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Runs `use` on `opened`, then closes it. */
async function closing<T>(opened: Opened, use: (opened: Opened) => Promise<T>): Promise<T> {
  try {
    return await use(opened);
  } finally {
    await opened.handle.close();
  }
}

/** Opens the folder `parts` below the workspace root, creating missing folders when `create`. */
async function openFolder(
  workspace: string,
  parts: string[],
  create: boolean,
  options: WalkOptions,
): Promise<{ walk: Walk; dir: Opened }> {
  const root = await mkdir(workspace, { recursive: true })
    .then(() => realpath(workspace))
    .catch((err: unknown) => {
      throw new WorkspaceError(`the workspace folder cannot be used (${codeOf(err) ?? 'unexpected error'})`);
    });
  const walk: Walk = { root, viaProcFd: options.viaProcFd ?? (procFd ??= existsSync('/proc/self/fd')) };
  let dir = await openChecked(walk, root, FOLDER, '.');
  for (const [index, name] of parts.entries()) {
    const shown = parts.slice(0, index + 1).join('/');
    dir = await closing(dir, async (parent) => {
      const path = childPath(walk, parent, name);
      if (create) {
        await mkdir(path).catch((err: unknown) => {
          if (codeOf(err) !== 'EEXIST') throw failure(err, shown);
        });
      }
      return openChecked(walk, path, FOLDER, shown);
    });
  }
  return { walk, dir };
}

/** Opens the last component of `path` with `openIt`, in its folder (closed after). */
async function openLast(
  workspace: string,
  path: string,
  create: boolean,
  options: WalkOptions,
  openIt: (walk: Walk, childAt: string) => Promise<Opened>,
): Promise<Opened> {
  const parts = workspaceParts(path);
  const name = parts.pop();
  if (name === undefined) throw new WorkspaceError(`"${path}" is the workspace folder, not a file`);
  const { walk, dir } = await openFolder(workspace, parts, create, options);
  return closing(dir, (folder) => openIt(walk, childPath(walk, folder, name)));
}

/**
 * Reads the file `path` of the workspace as bytes.
 * @throws Error (a message fit for the model) when it is not a file inside, or over `maxBytes`.
 */
export async function readWorkspaceBytes(
  workspace: string,
  path: string,
  maxBytes: number,
  options: WalkOptions = {},
): Promise<Buffer> {
  const file = await openLast(workspace, path, false, options, (walk, at) =>
    openChecked(walk, at, O_RDONLY | O_NONBLOCK, path),
  );
  return closing(file, async ({ handle }) => {
    const info = await handle.stat();
    if (!info.isFile()) throw new WorkspaceError(`"${path}" is not a file in the workspace`);
    if (info.size > maxBytes) throw new WorkspaceError(`"${path}" is ${info.size} bytes; the limit is ${maxBytes}`);
    return handle.readFile();
  });
}

/**
 * Reads the UTF-8 text file `path` of the workspace.
 * @throws Error (a message fit for the model) when it is not a file inside, or over `maxBytes`.
 */
export async function readWorkspaceFile(
  workspace: string,
  path: string,
  maxBytes: number,
  options: WalkOptions = {},
): Promise<string> {
  return (await readWorkspaceBytes(workspace, path, maxBytes, options)).toString('utf8');
}

/**
 * Writes `content` to the file `path` of the workspace, creating it and its folders as needed.
 * A symlink is written through only to an existing file inside the workspace.
 * @throws Error (a message fit for the model) when that would leave the workspace.
 */
export async function writeWorkspaceFile(
  workspace: string,
  path: string,
  content: string,
  options: WalkOptions = {},
): Promise<void> {
  const file = await openLast(workspace, path, true, options, (walk, at) =>
    // O_NOFOLLOW: a symlink is never created through; only then is an existing target opened.
    openChecked(walk, at, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK, path).catch((err: unknown) => {
      if (codeOf(err) !== 'ELOOP') throw err;
      return openChecked(walk, at, O_WRONLY | O_NONBLOCK, path);
    }),
  );
  await closing(file, async ({ handle }) => {
    if (!(await handle.stat()).isFile()) throw new WorkspaceError(`"${path}" is not a regular file`);
    await handle.truncate(0);
    await handle.writeFile(content);
  });
}

/** The entries of the folder `path` of the workspace (the root for `.`). */
export async function listWorkspaceFolder(
  workspace: string,
  path: string,
  options: WalkOptions = {},
): Promise<Dirent[]> {
  const { walk, dir } = await openFolder(workspace, workspaceParts(path), false, options);
  return closing(dir, ({ handle, real }) =>
    readdir(walk.viaProcFd ? fdPath(handle) : real, { withFileTypes: true }).catch((err: unknown) => {
      throw failure(err, path);
    }),
  );
}

/** A regular file below the workspace folder: its path (relative, `/` between folders) and size in bytes. */
export interface WorkspaceFileEntry {
  path: string;
  size: number;
}

/**
 * Every regular file below the workspace folder, sorted by path (code-unit order). Symbolic links
 * are neither followed nor listed, nor is anything but files and folders; folders are opened by
 * the same checked walk as reads. At most `limit` files (then `truncated`), `maxDepth` levels.
 */
export async function listWorkspaceTree(
  workspace: string,
  { limit, maxDepth = 32 }: { limit: number; maxDepth?: number },
  options: WalkOptions = {},
): Promise<{ files: WorkspaceFileEntry[]; truncated: boolean }> {
  const { walk, dir } = await openFolder(workspace, [], false, options);
  const files: WorkspaceFileEntry[] = [];
  let truncated = false;
  const visit = async (folder: Opened, prefix: string, depth: number): Promise<void> => {
    const entries = await readdir(walk.viaProcFd ? fdPath(folder.handle) : folder.real, { withFileTypes: true });
    for (const entry of entries) {
      if (files.length >= limit) {
        truncated = true;
        return;
      }
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      const at = childPath(walk, folder, entry.name);
      if (entry.isFile()) {
        const info = await lstat(at).catch(() => undefined); // gone meanwhile: left out
        if (info?.isFile()) files.push({ path, size: info.size });
      } else if (entry.isDirectory() && depth < maxDepth) {
        const child = await openChecked(walk, at, FOLDER | O_NOFOLLOW, path).catch(() => undefined);
        if (child) await closing(child, (opened) => visit(opened, path, depth + 1));
      }
    }
  };
  await closing(dir, (root) => visit(root, '', 1));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, truncated };
}

/**
 * Opens the regular file `path` of the workspace for reading, walked and checked as `read_file`
 * reads (inside only, symbolic links leading out refused); the caller closes the handle.
 * @throws Error (PathRefusedError for a path leading out) when it is not a file inside.
 */
export async function openWorkspaceFile(
  workspace: string,
  path: string,
  options: WalkOptions = {},
): Promise<{ handle: FileHandle; size: number }> {
  const file = await openLast(workspace, path, false, options, (walk, at) =>
    openChecked(walk, at, O_RDONLY | O_NONBLOCK, path),
  );
  const info = await file.handle.stat().catch(async (err: unknown) => {
    await file.handle.close();
    throw failure(err, path);
  });
  if (!info.isFile()) {
    await file.handle.close();
    throw new WorkspaceError(`"${path}" is not a file in the workspace`, 'EISDIR');
  }
  return { handle: file.handle, size: info.size };
}
