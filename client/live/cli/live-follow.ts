/**
 * How `cairn run` and `cairn watch` follow an agent's live output: straight from Temporal (the
 * same feed a web server keeps) or — with CAIRN_API_URL — over the stream route
 * (live-over-http.ts), into a printer (live-printer.ts).
 */
import { randomUUID } from 'node:crypto';
import type { AgentClient } from '../../agents/agent-client';
import { LiveHub, type LiveListener } from '../live-hub';

/** Follows an agent's live output into `listener`; `notice` hears why it paused or gave up. */
export type LiveFollower = (id: string, listener: LiveListener, notice: (message: string) => void) => () => void;

/**
 * Live output read straight from Temporal: the same feed a web server keeps, so this process is
 * one more subscriber of the agent's stream (one long-poll update in flight, of the ten a workflow
 * allows) — many people watching one agent should go through a web server (CAIRN_API_URL).
 */
export function liveFromTemporal(client: AgentClient): LiveFollower {
  const hub = new LiveHub({ client: client.temporal, subscriberId: `cli-${randomUUID()}` });
  return (id, listener) => hub.follow(id, undefined, listener);
}

/** How long the live text may trail the timeline's end before `watch` stops waiting for it (ms). */
export const LIVE_TAIL_MS = 5_000;

/** Waits for `promise`, but `ms` at most. */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
