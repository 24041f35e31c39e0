/**
 * Where the CLI's HTTP API calls go (`CAIRN_API_URL`) and the bearer token they carry.
 * `CAIRN_TOKEN` is the CLI's own; the server reads `CAIRN_API_TOKEN` (its admin token) and never
 * `CAIRN_TOKEN`. When only `CAIRN_API_TOKEN` is set — the CLI run beside the server, in its
 * environment — the CLI sends that, and says so once on stderr, so a shell that set the server's
 * variable is not refused with 401 for nothing. Neither variable changes meaning: the server
 * still reads only its own.
 */
import { z } from 'zod';
import { issueLines } from '../../workflows/base/issue-lines';
import { printError } from './terminal';

/** The note printed when the server's token is sent. */
export const API_TOKEN_NOTE = 'cairn: CAIRN_TOKEN is not set; sending CAIRN_API_TOKEN as the bearer token';

/**
 * The token to send (`CAIRN_TOKEN`, else `CAIRN_API_TOKEN`, each trimmed; blank is unset) and
 * whether it is the server's, which the caller reports with `API_TOKEN_NOTE`.
 */
export function apiToken(env: Readonly<Record<string, string | undefined>>): {
  token: string | undefined;
  fromServer: boolean;
} {
  const own = env.CAIRN_TOKEN?.trim();
  if (own) return { token: own, fromServer: false };
  const server = env.CAIRN_API_TOKEN?.trim();
  return server ? { token: server, fromServer: true } : { token: undefined, fromServer: false };
}

/** Hosts plain `http://` may reach: this machine only (nothing crosses a network in the clear). */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

const cliApiSchema = z.object({
  CAIRN_API_URL: z
    .url({
      protocol: /^https?$/,
      error: 'expected the Cairn server URL, e.g. https://cairn.example.com',
    })
    .refine((url) => new URL(url).protocol === 'https:' || LOOPBACK.test(new URL(url).hostname), {
      error:
        'plain http:// is allowed on loopback only (it would send CAIRN_TOKEN and answers in the clear); use https://',
    }),
  CAIRN_TOKEN: z.string().min(1).optional(),
});

/** Where the API is and the token to send. */
export interface ApiTarget {
  url: string;
  token?: string;
}

let noted = false;
const noteOnce = (line: string) => void (noted || ((noted = true), printError(line)));

/**
 * The server and token the CLI talks to, or undefined when CAIRN_API_URL is unset (Temporal
 * directly). The token is CAIRN_TOKEN, else CAIRN_API_TOKEN with a note (apiToken above).
 */
export function cliApi(
  env: Record<string, string | undefined> = process.env,
  note: (line: string) => void = noteOnce,
): ApiTarget | undefined {
  if (!env.CAIRN_API_URL) return undefined;
  const { token: sent, fromServer } = apiToken(env);
  if (fromServer) note(API_TOKEN_NOTE);
  const parsed = cliApiSchema.safeParse({ CAIRN_API_URL: env.CAIRN_API_URL, CAIRN_TOKEN: sent });
  if (!parsed.success)
    throw new Error(`Invalid configuration: ${issueLines(parsed.error, '(environment)').join('; ')}`);
  const { CAIRN_API_URL: url, CAIRN_TOKEN: token } = parsed.data;
  return { url: url.replace(/\/+$/, ''), ...(token ? { token } : {}) };
}
