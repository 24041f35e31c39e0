/**
 * The writes of a streamed front-door answer (routes/chat-completions.ts): its chunks, `[DONE]`
 * and heartbeat comments, one at a time and in order. A client that reads more slowly than the
 * answer is written falls behind, and what waits for it is held in memory; past
 * MAX_QUEUED_FRAMES waiting (the cap the live stream routes let a client go at) nothing more is
 * queued: the sender has `overflowed`, the follow is stopped, and only the answer's ending goes
 * out after what waits — its last chunk saying why (`cairn.failure` CLIENT_TOO_SLOW), then `[DONE]`.
 */
import type { SSEStreamingApi } from 'hono/streaming';
import type { ErrorCode } from '../../../workflows/base/error-codes';
import { MAX_QUEUED_FRAMES } from '../../http/stream-limiter';
import type { ChatCompletionChunk } from './completion-objects';

/** Why a streamed answer stopped following its turn, as `cairn.failure` says it. */
export interface StreamFailure {
  code: ErrorCode;
  message: string;
}

/** The failure of an answer whose client fell MAX_QUEUED_FRAMES writes behind. */
export const CLIENT_TOO_SLOW: StreamFailure = {
  code: 'CLIENT_TOO_SLOW',
  message: `the client read too slowly: ${MAX_QUEUED_FRAMES} chunks waited for it`,
};

export class ChunkSender {
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;
  private behind = false;

  /** Writes to `stream`; a failed write (the client went away) or an overflow aborts `stop`. */
  constructor(
    private readonly stream: SSEStreamingApi,
    private readonly stop: AbortController,
    private readonly cap: number = MAX_QUEUED_FRAMES,
  ) {}

  /** Whether the client fell `cap` writes behind: nothing but the ending goes out any more. */
  get overflowed(): boolean {
    return this.behind;
  }

  /** Queues a chunk (or `[DONE]`); resolves once what was queued before it and it are written. */
  send(chunk: ChatCompletionChunk | '[DONE]'): Promise<void> {
    return this.enqueue(() => this.writeData(chunk), false);
  }

  /** Queues the comment that keeps proxies from closing a quiet stream (OpenAI clients skip it). */
  heartbeat(): void {
    void this.enqueue(async () => void (await this.stream.write(': heartbeat\n\n')), false);
  }

  /** The answer's last chunk, then `[DONE]`: queued past the cap, so an answer always ends properly. */
  end(last: ChatCompletionChunk): Promise<void> {
    void this.enqueue(() => this.writeData(last), true);
    return this.enqueue(() => this.writeData('[DONE]'), true);
  }

  /** Resolves once everything queued has been written (or its write failed). */
  drained(): Promise<void> {
    return this.chain;
  }

  private async writeData(chunk: ChatCompletionChunk | '[DONE]'): Promise<void> {
    await this.stream.writeSSE({ data: chunk === '[DONE]' ? chunk : JSON.stringify(chunk) });
  }

  private enqueue(write: () => Promise<void>, ending: boolean): Promise<void> {
    if (!ending && (this.behind || this.pending >= this.cap)) {
      this.behind = true;
      this.stop.abort();
      return this.chain;
    }
    this.pending += 1;
    this.chain = this.chain
      .then(write)
      .catch(() => this.stop.abort())
      .finally(() => {
        this.pending -= 1;
      });
    return this.chain;
  }
}
