/**
 * Gives the web page an API token the way a person does: pasted into the token box in the page's
 * header (the page never takes one from its address), checked by the server, then kept.
 */
import type { Page } from 'playwright-core';

/** Opens `url`, pastes `token` into the header's token box and waits for the page to act with it. */
export async function pasteToken(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/`);
  const box = page.locator('header .token-box');
  await box.locator('input[name="token"]').fill(token);
  await Promise.all([page.waitForEvent('load'), box.getByRole('button', { name: 'Use token' }).click()]);
  await page.locator('header .identity .who', { hasText: 'API token of' }).waitFor({ timeout: 30_000 });
}
