/**
 * The events of an agent's live stream as viewers get them (docs/contracts.md#live-output): each
 * retained item of the stream workflow with its call's identity spelled out — a delta is
 * `{ agentId, stepId?, modelCallId, attempt, purpose, channel, text, toolCallId?, toolName? }` —
 * at its offset; the in-band end is the `end` event.
 */
import type { LiveCall, LiveItem, LivePage } from '../../workflows/contract/live-messages';

/** What viewers are sent: `delta`, `call.started`, `call.finished`, `call.superseded` or `end`. */
export interface LiveEvent {
  /** The stream offset: the SSE `id:`, and what `Last-Event-ID` resumes after. */
  offset: number;
  type: 'delta' | 'call.started' | 'call.finished' | 'call.superseded' | 'end';
  /** The item: its call's identity and its own fields (empty for `end`). */
  data: Record<string, unknown>;
}

/** The events of a page's items, in order; an item whose call the page does not name is left out. */
export function eventsOf(page: Pick<LivePage, 'items' | 'calls'>): LiveEvent[] {
  return page.items.flatMap((item) => {
    const event = eventOf(item, item.key === undefined ? undefined : page.calls[item.key]);
    return event ? [event] : [];
  });
}

function eventOf(item: LiveItem, call: LiveCall | undefined): LiveEvent | undefined {
  if (item.entry.type === 'end') return { offset: item.offset, type: 'end', data: {} };
  if (!call) return undefined;
  const { type, ...fields } = item.entry;
  return { offset: item.offset, type, data: { ...call, ...fields } };
}
