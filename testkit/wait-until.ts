/**
 * Polls until a condition holds — the replacement for fixed sleeps in tests. Fails with the
 * description and the last value seen, so a timeout says what was being waited for.
 */
export async function waitUntil<T>(
  description: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 20_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting until ${description}${reason}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
