/**
 * Files given to an agent at its start (or with a thread's message), stored as `inputs/<name>`
 * in the agent's (or thread's) folder (config/agent-workspace.ts): checked against the limits
 * first, then written to a staging folder, moved into place only once the whole request is
 * accepted, and removed again when the agent does not start (the message is not taken) — so a
 * refused request leaves nothing behind. Shared by the HTTP API's multipart start and thread
 * message, and `cairn run --file` without the API.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, link, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentWorkspaceDir } from '../../config/agent-workspace';
import type { UploadLimits } from '../../config/upload-config';
import { MAX_SENT_NAME_BYTES, uniqueUploadNames, uploadExtension } from './upload-names';

/** The folder under an agent's folder that uploads go to. */
export const INPUTS_FOLDER = 'inputs';

/**
 * Where uploads wait under the workspace root until their agent starts: on the same disk as the
 * agents' folders (so moving them is a rename), and never an agent's folder (those start with a
 * letter or digit).
 */
export const STAGING_FOLDER = '.cairn-uploads';

/**
 * How old a staging folder is when it is taken for one a server left behind (it stopped between
 * staging and placing): a request's own lives for seconds.
 */
export const STALE_STAGING_MS = 60 * 60 * 1000;

/** Removes staging folders older than STALE_STAGING_MS; best effort, never failing a request. */
async function sweepStaging(staging: string, now = Date.now()): Promise<void> {
  const names = await readdir(staging).catch(() => []);
  for (const name of names) {
    const folder = join(staging, name);
    const info = await stat(folder).catch(() => undefined);
    if (info && now - info.mtimeMs > STALE_STAGING_MS)
      await rm(folder, { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * Why a request's files are refused: over a limit (413), of a type not accepted (415), or with a
 * name longer than any file system's (400).
 */
export class UploadRefusal extends Error {
  constructor(
    readonly code: 'UPLOAD_TOO_LARGE' | 'UPLOAD_TYPE_REFUSED' | 'UPLOAD_NAME_TOO_LONG',
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'UploadRefusal';
  }
}

/** One file to store: the name its sender gave, its size, and its bytes (a form's Blob, or the local file holding them). */
export interface SentFile {
  name: string;
  size: number;
  content: Uint8Array | Blob | { path: string };
}

/** A file that passed the checks, with the name it is stored under. */
export interface CheckedFile extends SentFile {
  stored: string;
}

/** How much of a refused long name its refusal repeats, in characters. */
const NAME_SHOWN = 40;

/**
 * Refuses a name over MAX_SENT_NAME_BYTES before anything else reads it: making a stored name of
 * one costs time in its length, and its refusal would repeat it whole.
 */
function refuseLongNames(files: readonly SentFile[]): void {
  for (const file of files) {
    const size = Buffer.byteLength(file.name, 'utf8');
    if (size <= MAX_SENT_NAME_BYTES) continue;
    const shown = `${Array.from(file.name.slice(0, 2 * NAME_SHOWN))
      .slice(0, NAME_SHOWN)
      .join('')}…`;
    throw new UploadRefusal(
      'UPLOAD_NAME_TOO_LONG',
      `a file name of ${size} bytes was sent (${JSON.stringify(shown)}); at most ${MAX_SENT_NAME_BYTES} are accepted`,
      shown,
    );
  }
}

/**
 * The request's files with their stored names, or an UploadRefusal: a name over
 * MAX_SENT_NAME_BYTES (UPLOAD_NAME_TOO_LONG, before the name is read further), more files than allowed or
 * a file over the byte limit (UPLOAD_TOO_LARGE), a stored name whose extension is not accepted
 * (UPLOAD_TYPE_REFUSED). The type is judged by the stored name's extension: that is what
 * `read_file` picks a parser by, whatever Content-Type the sender declared.
 */
export function checkUploads(
  files: readonly SentFile[],
  limits: UploadLimits,
  existing: readonly string[] = [],
): CheckedFile[] {
  if (files.length > limits.maxFiles)
    throw new UploadRefusal('UPLOAD_TOO_LARGE', `${files.length} files sent; at most ${limits.maxFiles} are accepted`);
  refuseLongNames(files);
  // Unique against the folder's files too: a thread's later message never replaces an earlier file.
  const names = uniqueUploadNames(
    files.map((f) => f.name),
    existing,
  );
  const anyType = limits.types.includes('*');
  return files.map((file, i) => {
    const stored = names[i] ?? 'upload';
    if (file.size > limits.maxFileBytes)
      throw new UploadRefusal(
        'UPLOAD_TOO_LARGE',
        `${JSON.stringify(file.name)} holds ${file.size} bytes; at most ${limits.maxFileBytes} are accepted per file`,
        file.name,
      );
    const extension = uploadExtension(stored);
    if (!anyType && !limits.types.includes(extension))
      throw new UploadRefusal(
        'UPLOAD_TYPE_REFUSED',
        `${JSON.stringify(file.name)}: ${extension ? `.${extension} files are` : 'a file without an extension is'} not accepted (accepted: ${limits.types.join(', ')})`,
        file.name,
      );
    return { ...file, stored };
  });
}

/** The paths the agent's input names its uploads by, relative to its folder: `inputs/<name>`. */
export const inputPaths = (files: readonly CheckedFile[]): string[] => files.map((f) => `${INPUTS_FOLDER}/${f.stored}`);

/** The names already in `inputs/` of `workflowId`'s folder (none when it does not exist). */
export function existingInputs(root: string, workflowId: string): Promise<string[]> {
  return readdir(join(agentWorkspaceDir(root, workflowId), INPUTS_FOLDER)).catch(() => []);
}

/** Files placed in an agent's folder; `remove` takes them out again (its start failed). */
export interface PlacedUploads {
  remove(): Promise<void>;
}

/** Checked files written to a staging folder, not yet any agent's. */
export class StagedUploads {
  private constructor(
    private readonly root: string,
    private readonly folder: string,
  ) {}

  /**
   * Writes `files` under `<root>/.cairn-uploads/<random>/`; on any failure nothing stays. Folders
   * a stopped server left there are swept first.
   */
  static async stage(root: string, files: readonly CheckedFile[]): Promise<StagedUploads> {
    await sweepStaging(join(root, STAGING_FOLDER));
    const folder = join(root, STAGING_FOLDER, randomUUID());
    await mkdir(folder, { recursive: true, mode: 0o700 });
    try {
      for (const file of files) {
        const to = join(folder, file.stored);
        // `wx`: a name is written once; the checked names are unique, so this never refuses.
        if (file.content instanceof Uint8Array) await writeFile(to, file.content, { flag: 'wx' });
        // Streamed from the form's Blob: no second copy of the bytes in memory.
        else if (file.content instanceof Blob) await writeFile(to, file.content.stream(), { flag: 'wx' });
        else await copyFile(file.content.path, to);
      }
    } catch (err) {
      await rm(folder, { recursive: true, force: true });
      throw err;
    }
    return new StagedUploads(root, folder);
  }

  /**
   * Moves the staged files to `inputs/` of `workflowId`'s folder. `remove` deletes the folder
   * again when this made it (else only `inputs/`, or — when `inputs/` was there before, a
   * thread's earlier message — only these files).
   */
  async place(workflowId: string): Promise<PlacedUploads> {
    const agentDir = agentWorkspaceDir(this.root, workflowId);
    const made = await mkdir(agentDir, { recursive: true });
    const inputs = join(agentDir, INPUTS_FOLDER);
    if (
      await stat(inputs).then(
        () => true,
        () => false,
      )
    )
      return this.placeAmong(inputs);
    try {
      // One rename of the folder: the agent sees all its inputs or none.
      await rename(this.folder, inputs);
    } catch (err) {
      await this.discard();
      if (made !== undefined) await rm(agentDir, { recursive: true, force: true });
      throw err;
    }
    return { remove: () => rm(made !== undefined ? agentDir : inputs, { recursive: true, force: true }) };
  }

  /**
   * Adds the staged files to an `inputs/` that holds files already: each linked in (`link` never
   * replaces a file of the same name, which a concurrent message may just have written), then the
   * staging folder goes. On a failure the ones added are taken out again.
   */
  private async placeAmong(inputs: string): Promise<PlacedUploads> {
    const added: string[] = [];
    const removeAdded = () => Promise.all(added.map((to) => rm(to, { force: true }))).then(() => undefined);
    try {
      for (const name of await readdir(this.folder)) {
        const to = join(inputs, name);
        await link(join(this.folder, name), to);
        added.push(to);
      }
    } catch (err) {
      await removeAdded();
      throw err;
    } finally {
      await this.discard();
    }
    return { remove: removeAdded };
  }

  /** Deletes the staged files (the request was refused after staging). */
  discard(): Promise<void> {
    return rm(this.folder, { recursive: true, force: true });
  }
}

/**
 * Stores `files` for the agent (or thread) `workflowId` and runs `start` (or the send of the
 * message); when it fails the files are removed before the error goes on. Returns what `start`
 * returned.
 */
export async function storeThenStart<T>(
  root: string,
  workflowId: string,
  files: readonly CheckedFile[],
  start: () => Promise<T>,
): Promise<T> {
  if (files.length === 0) return start();
  const staged = await StagedUploads.stage(root, files);
  const placed = await staged.place(workflowId);
  try {
    return await start();
  } catch (err) {
    await placed.remove();
    throw err;
  }
}
