import type { ThreadClient } from './thread-client';

/** The slice of the thread client the thread routes and the chat front door call. */
export type ThreadsPort = Pick<ThreadClient, 'open' | 'send' | 'get' | 'message' | 'list' | 'newId'>;
