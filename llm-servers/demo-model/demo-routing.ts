/**
 * The offline demo model's two routers, canned and deterministic. A thread's `route-message`
 * call answers `{ kind, reason }`: a question is chat, an imperative with an object (an action
 * verb and more words) is a task, anything else chat. A graph's `route` call answers
 * `{ to, reason }`: the candidate whose condition shares the most words with the node's result
 * (words every candidate shares do not count), the first on a tie, or null when none shares any.
 * Both read the words Cairn sends (workflows/model/thread/message-route.ts, workflows/model/graph/route-reply.ts).
 */

/** Words a question starts with. */
const QUESTION_WORDS = new Set(
  'what why how who whom whose when where which is are was were am can could do does did should would will shall'.split(
    ' ',
  ),
);

/** Verbs a task starts with: work to carry out, not a question to answer. */
const ACTION_VERBS = new Set(
  [
    'add analyse analyze build calculate check collect compare compose convert create delete design draft explain',
    'extract fetch find fix generate list make organise organize outline plan prepare read rename research review',
    'rewrite save summarise summarize translate triage update write',
  ]
    .join(' ')
    .split(' '),
);

const words = (text: string): string[] => text.toLowerCase().match(/[a-z]+/g) ?? [];

/** The thread router's reply to message `text`. */
export function messageRoute(text: string): { kind: 'chat' | 'task'; reason: string } {
  const all = words(text);
  const [first, ...rest] = all[0] === 'please' ? all.slice(1) : all;
  if (text.trim().endsWith('?') || (first !== undefined && QUESTION_WORDS.has(first)))
    return { kind: 'chat', reason: '[offline demo model] A question: it is answered in words.' };
  if (first !== undefined && ACTION_VERBS.has(first) && rest.length > 0)
    return {
      kind: 'task',
      reason: `[offline demo model] An imperative ("${first} …") with an object: work for tools.`,
    };
  return {
    kind: 'chat',
    reason: '[offline demo model] Neither a question nor an instruction: a remark answered in words.',
  };
}

/** Words that say nothing about which condition holds. */
const STOP_WORDS = new Set(['the', 'and', 'for', 'that', 'this', 'with', 'from', 'its', 'it', 'not', 'are', 'has']);

/** A word's rough stem: lower case, a plural or third-person `s` dropped. */
const stem = (word: string): string => (word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word);

const keyWords = (text: string): Set<string> =>
  new Set(
    words(text)
      .filter((w) => w.length >= 3 && !STOP_WORDS.has(w))
      .map(stem),
  );

/** A route request's candidates (`1. "node": condition`) and the text the conditions are judged on. */
export function readRouteRequest(message: string): { judged: string; candidates: { to: string; when: string }[] } {
  const at = message.lastIndexOf('Candidates, in order:');
  // The node's result (and output), without the line that introduces it.
  const judged = (at >= 0 ? message.slice(0, at) : message).replace(/^Node "[^"]*" finished with this result:\n/, '');
  const list = at >= 0 ? message.slice(at) : '';
  const candidates = [...list.matchAll(/^\d+\. "([^"]+)": ?(.*)$/gm)].map((m) => ({
    to: m[1] ?? '',
    when: m[2] ?? '',
  }));
  return { judged, candidates };
}

/** The graph router's reply to the `route` request whose task message is `message`. */
export function graphRoute(message: string): { to: string | null; reason: string } {
  const { judged, candidates } = readRouteRequest(message);
  const seen = keyWords(judged);
  const conditions = candidates.map((c) => keyWords(c.when));
  const shared =
    conditions.length > 1 ? [...(conditions[0] ?? [])].filter((w) => conditions.every((c) => c.has(w))) : [];
  let best: { to: string; when: string; score: number; hits: string[] } | undefined;
  for (const [i, candidate] of candidates.entries()) {
    const hits = [...(conditions[i] ?? [])].filter((w) => !shared.includes(w) && seen.has(w));
    if (hits.length > 0 && (!best || hits.length > best.score)) best = { ...candidate, score: hits.length, hits };
  }
  if (!best)
    return { to: null, reason: '[offline demo model] The result shares no words with any condition: none holds.' };
  return {
    to: best.to,
    reason: `[offline demo model] "${best.when}" holds: the result mentions ${best.hits.map((h) => `"${h}"`).join(', ')}.`,
  };
}
