/**
 * A gate a test opens: a promise (`opened`) that stays pending until the test calls `open` —
 * replies scripted `after` it (test/fake-llm/replies.ts) stay in flight until then.
 */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
