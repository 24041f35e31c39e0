/**
 * A real headless Chromium for the browser tests: Debian's /usr/bin/chromium (installed by
 * .ci/run) driven by playwright-core, each launch with a profile of its own (its own cookies and
 * storage, so two launches are two people) removed when it closes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where the browser tests find Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

/** One launched browser: its context, the page it opened with, and how to close it (profile and all). */
export interface LaunchedChromium {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

/** Launches Chromium with a fresh profile; a missing Chromium fails with how to install it. */
export async function launchChromium(options: { viewport?: { width: number; height: number } } = {}) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install it with "apt-get update && apt-get install -y chromium"`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'cairn-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      ...(options.viewport ? { viewport: options.viewport } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const launched: LaunchedChromium = {
      context,
      page,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
    return launched;
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
}
