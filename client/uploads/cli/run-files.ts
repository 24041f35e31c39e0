/**
 * `cairn run --file <path>` (repeatable): the files an agent is given at its start, stored as
 * `inputs/<name>` in its folder — and `cairn chat`'s `/file <path>`, a file for the next message,
 * stored in the thread's folder. Through the HTTP API (CAIRN_API_URL) they are uploaded with the
 * start, as the page does; straight to Temporal they are copied into the agent's folder under
 * CAIRN_WORKSPACE, which must then be set and reachable from here — the workers' workspace on
 * this machine or on storage shared with them — else the run refuses before anything starts.
 */
import type { AgentStart } from '../../definitions/resolve-definition';
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { CairnConfig } from '../../../config/config';
import type { AgentClient } from '../../agents/agent-client';
import {
  checkUploads,
  existingInputs,
  inputPaths,
  storeThenStart,
  UploadRefusal,
  type SentFile,
} from '../store-uploads';
import { UsageError } from '../../cli/cli-exit';

/** A file named by `--file`: where it is, the name it goes by, its size. */
export interface LocalFile {
  path: string;
  name: string;
  size: number;
}

/**
 * The files `--file` named, each a readable regular file.
 * @throws UsageError naming the first that is missing or not a file — before anything starts.
 */
export function localFiles(paths: readonly string[], cwd: string, option = '--file'): LocalFile[] {
  return paths.map((given) => {
    const path = resolve(cwd, given);
    let stats;
    try {
      stats = statSync(path);
    } catch (err) {
      throw new UsageError(
        `${option} ${given}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
    if (!stats.isFile()) throw new UsageError(`${option} ${given}: ${path} is not a file`);
    return { path, name: basename(path), size: stats.size };
  });
}

/**
 * Where `--file` copies go without the API: CAIRN_WORKSPACE as configured, only when it is set
 * and is a folder here.
 * @throws UsageError saying what to set otherwise.
 */
function localWorkspace(config: CairnConfig, env: Record<string, string | undefined>, option = '--file'): string {
  const hint =
    "set CAIRN_API_URL to upload through the Cairn server, or CAIRN_WORKSPACE to the workers' workspace folder when it is on this machine (or storage shared with them)";
  if (!env.CAIRN_WORKSPACE) throw new UsageError(`${option} needs a place to put the files: ${hint}`);
  let folder: boolean;
  try {
    folder = statSync(config.workspace).isDirectory();
  } catch {
    folder = false;
  }
  if (!folder) throw new UsageError(`${option}: CAIRN_WORKSPACE ${config.workspace} is not a folder here; ${hint}`);
  return config.workspace;
}

/** UploadRefusal (over a limit, a refused type) as a usage error, before anything starts. */
function checked(
  files: readonly LocalFile[],
  config: CairnConfig,
  existing: readonly string[] = [],
  option = '--file',
) {
  const sent: SentFile[] = files.map((f) => ({ name: f.name, size: f.size, content: { path: f.path } }));
  try {
    return checkUploads(sent, config.http.uploads, existing);
  } catch (err) {
    if (err instanceof UploadRefusal) throw new UsageError(`${option}: ${err.message} (${err.code})`);
    throw err;
  }
}

/**
 * `cairn chat`'s `/file` straight to Temporal: `files` copied to `inputs/` of thread `threadId`'s
 * folder (names unique against the files there), then `send` with their paths; removed again when
 * the message is not taken.
 */
export async function sendWithLocalFiles<T>(
  config: CairnConfig,
  threadId: string,
  files: readonly LocalFile[],
  send: (paths: string[]) => Promise<T>,
  env: Record<string, string | undefined> = process.env,
): Promise<T> {
  if (files.length === 0) return send([]);
  const root = localWorkspace(config, env, '/file');
  const accepted = checked(files, config, await existingInputs(root, threadId), '/file');
  return storeThenStart(root, threadId, accepted, () => send(inputPaths(accepted)));
}

/**
 * Starts the agent straight on Temporal with `files` copied to `inputs/` of its folder first
 * (removed again when the start fails), and the input naming them. Returns the agent's id.
 */
export async function startWithLocalFiles(
  client: AgentClient,
  config: CairnConfig,
  input: AgentStart,
  files: readonly LocalFile[],
  env: Record<string, string | undefined> = process.env,
): Promise<string> {
  if (files.length === 0) return client.start(input);
  const root = localWorkspace(config, env);
  const accepted = checked(files, config);
  const withFiles = { ...input, files: [...(input.files ?? []), ...inputPaths(accepted)] };
  const workflowId = client.newAgentId(input.task);
  return storeThenStart(root, workflowId, accepted, () => client.start(withFiles, { workflowId }));
}
