import { describe, expect, it } from 'vitest';
import { axeViolations, CASTRO, join, located, matchEachOther, NEARBY, photoFile } from './flows.ts';
import { screenshot, useE2E } from './harness.ts';

describe('safety in Chromium', () => {
  const e = useE2E();

  it("a man reports another from their chat with a screenshot, and sees the 'received' alert in the Safety centre", async () => {
    const a = await e().newPage(located(CASTRO));
    const b = await e().newPage(located(NEARBY));
    await join(a.page, 'Alex');
    await join(b.page, 'Ben');

    // They match, and Ben writes something nasty.
    await matchEachOther(a.page, 'Alex', b.page, 'Ben');
    await b.page.goto('/messages');
    await b.page
      .getByRole('region', { name: 'New matches' })
      .getByRole('link', { name: /^Alex:/ })
      .click();
    await b.page.waitForURL(/\/messages\/(?!chat)[^/]+$/);
    await b.page.getByRole('textbox', { name: 'Message' }).fill('you are worthless');
    await b.page.getByRole('button', { name: 'Send' }).click();

    // Alex opens the chat and reports Ben from its menu.
    await a.page.goto('/messages');
    await a.page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /^Ben/ }).click();
    await a.page.getByRole('list', { name: 'Messages' }).getByText('you are worthless').waitFor({ timeout: 10_000 });
    await a.page.getByRole('button', { name: 'Chat options' }).click();
    await a.page.getByRole('button', { name: 'Report', exact: true }).click();
    const form = a.page.getByRole('form', { name: 'Report Ben' });
    await form.getByLabel('What kind of problem?').selectOption('harassment');
    await form.getByLabel('What happened, in a few words').fill('He insults me');
    await form.locator('input[type="file"]').setInputFiles(await photoFile());
    await form.getByRole('list', { name: 'Attached screenshots' }).waitFor();
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'safety-report-sheet');
    await form.getByRole('button', { name: 'Send report' }).click();
    await a.page.getByText('Report sent').waitFor({ timeout: 10_000 });

    // The Safety centre, from Settings: the 'received' alert with its block action.
    await a.page.goto('/settings');
    await a.page.getByRole('link', { name: 'Safety centre' }).click();
    await a.page.waitForURL('**/safety');
    const list = a.page.getByRole('list', { name: 'Safety alerts' });
    await list.getByRole('heading', { name: 'Report received' }).waitFor({ timeout: 10_000 });
    await list.getByRole('button', { name: 'Block him' }).waitFor();
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'safety-centre');

    await list.getByRole('button', { name: 'Mark read' }).click();
    await list.getByRole('button', { name: 'Mark read' }).waitFor({ state: 'detached' });
    await list.getByRole('button', { name: 'Dismiss' }).click();
    await a.page.getByRole('heading', { name: 'No alerts' }).waitFor();
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'safety-centre-empty');
  });

  it('a man reaches a cell’s options on the grid, sets his trusted contact, and starts and closes a meetup check-in', async () => {
    const a = await e().newPage(located(CASTRO));
    const b = await e().newPage(located(NEARBY));
    await join(a.page, 'Carl');
    await join(b.page, 'Dan');
    await matchEachOther(a.page, 'Carl', b.page, 'Dan');

    // The grid: a small options button on Dan's cell, beside the link to his profile.
    await a.page.goto('/grid');
    await a.page.getByRole('button', { name: 'Options for Dan' }).click();
    await a.page.getByRole('button', { name: 'Report Dan' }).waitFor();
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'safety-grid-cell-options');
    await a.page.keyboard.press('Escape');

    // Safety settings: the missed-check-in email on, and a trusted contact.
    await a.page.goto('/settings/safety');
    await a.page.getByRole('switch', { name: /^Email my contact if I miss a check-in/ }).click();
    const contact = a.page.getByRole('form', { name: 'Trusted contact' });
    await contact.getByLabel('Their name').fill('Sam');
    await contact.getByLabel('Their email').fill('sam@example.com');
    await contact.getByRole('button', { name: 'Add contact' }).click();
    await a.page.getByText('Trusted contact saved').waitFor();

    // The Safety centre: a check-in with his match, then "I'm safe".
    await a.page.goto('/safety');
    await a.page.getByRole('button', { name: 'Start a check-in' }).click();
    const form = a.page.getByRole('form', { name: 'Start a check-in' });
    await form.getByLabel('Who are you meeting?').selectOption('Dan');
    await form.getByLabel('Where?').fill('Café Flore, Castro St');
    await form.getByRole('button', { name: 'Start check-in' }).click();
    const card = a.page.getByRole('region', { name: 'Meetup check-in' });
    await card.getByText('Check-in active: Dan').waitFor({ timeout: 10_000 });
    expect(await axeViolations(a.page)).toEqual([]);
    await screenshot(a.page, 'safety-checkin-active');
    await card.getByRole('button', { name: "I'm safe" }).click();
    await card.getByRole('button', { name: 'Start a check-in' }).waitFor();
  });
});
