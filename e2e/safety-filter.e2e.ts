import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { explicitLookingImage } from '../packages/server/test/moderation-images.ts';
import { axeViolations, CASTRO, join, located, matchEachOther, NEARBY } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

// The real model scores the chat photo. Drawn images never reach the spec's 0.8, so this server
// holds at 0.02, as the server's moderation tests do (between the neutral and explicit-looking sets).
describe('content filtering and the safety score in Chromium', () => {
  const e = useE2E({ MODERATION_HOLD_AT: '0.02' });

  it('blurs a sensitive chat photo until the receiver taps it, and the safety score rises when he turns a setting on', async () => {
    const a = await e().newPage(located(CASTRO));
    const b = await e().newPage(located(NEARBY));
    await join(a.page, 'Alex');
    await join(b.page, 'Ben');
    await matchEachOther(a.page, 'Alex', b.page, 'Ben');

    // Ben sends an explicit-looking photo from their chat.
    const file = path.join(import.meta.dirname, 'screenshots', 'explicit-looking.jpg');
    writeFileSync(file, await explicitLookingImage(1));
    await b.page.goto('/messages');
    await b.page
      .getByRole('region', { name: 'New matches' })
      .getByRole('link', { name: /^Alex:/ })
      .click();
    await b.page.waitForURL(/\/messages\/(?!chat)[^/]+$/);
    await b.page.getByLabel('Photo to send').setInputFiles(file);
    await b.page
      .getByRole('list', { name: 'Messages' })
      .getByRole('img', { name: 'Your sent picture' })
      .waitFor({ timeout: 15_000 });
    await e().app.moderation.settle();

    // Alex (blurSensitiveImages on by default) sees it blurred, then taps to reveal it.
    await a.page.goto('/messages');
    await a.page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /^Ben/ }).click();
    const blurred = a.page.getByRole('button', { name: 'Sensitive photo, blurred. Tap to reveal' });
    await blurred.waitFor({ timeout: 10_000 });
    expect(await a.page.getByRole('img', { name: 'Picture he sent' }).count()).toBe(0);
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'safety-chat-photo-blurred');
    await blurred.click();
    await a.page.getByRole('img', { name: 'Picture he sent' }).waitFor();
    await screenshot(a.page, 'safety-chat-photo-revealed');

    // The Safety centre's score: defaults have three of the five on (80); one tap makes it 90.
    await a.page.goto('/safety');
    const score = a.page.getByTestId('safety-score');
    await score.waitFor({ timeout: 10_000 });
    expect(await score.textContent()).toBe('80');
    await a.page.getByRole('button', { name: 'Turn on Restrict unverified contacts (+10)' }).click();
    await a.page.getByTestId('safety-score').getByText('90').waitFor({ timeout: 10_000 });
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'safety-score');
    // The server kept it: a reload shows the same score.
    await a.page.reload();
    await a.page.getByTestId('safety-score').getByText('90').waitFor({ timeout: 10_000 });
  });
});
