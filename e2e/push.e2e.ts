import { describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { useE2E } from './harness.ts';

/**
 * Web Push in Chromium. pushManager.subscribe() hangs here (Chromium reaches no push service
 * offline), so: the service worker's push handler is driven through the DevTools
 * protocol (ServiceWorker.deliverPushMessage). Storing the subscription is proved by the server
 * tests (push.test.ts) against a local push endpoint that decrypts the payload.
 */
const vapid = webpush.generateVAPIDKeys();

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: { url?: string } | null;
}

describe('Web Push', () => {
  const t = useE2E({
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:e2e@example.com',
  });

  it('shows a pushed notification from the service worker with its title, body and link', async () => {
    const { context, page } = await t().newPage();
    await context.grantPermissions(['notifications'], { origin: t().baseUrl });
    const cdp = await context.newCDPSession(page);
    const registrations = new Map<string, string>();
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
      for (const r of e.registrations) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
    });
    await cdp.send('ServiceWorker.enable');

    await page.goto('/');
    const scope = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return reg.scope;
    });
    expect(scope).toBe(`${t().baseUrl}/`);
    await expect.poll(() => registrations.get(scope), { timeout: 5000 }).toBeTruthy();
    expect(await page.evaluate(() => Notification.permission)).toBe('granted');

    const heard = page.evaluate(
      () =>
        new Promise<unknown>((resolve) =>
          navigator.serviceWorker.addEventListener('message', (e) => {
            if ((e.data as { type?: string }).type === 'push') resolve(e.data);
          }),
        ),
    );
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: t().baseUrl,
      registrationId: registrations.get(scope)!,
      data: JSON.stringify({
        title: 'Sam',
        body: 'This message is longer than fifty characters, so ...',
        url: '/messages/conv-123',
        tag: 'conversation-conv-123',
      }),
    });

    const shown = async () =>
      page.evaluate(async () => {
        const reg = await navigator.serviceWorker.ready;
        return (await reg.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
      });
    await expect.poll(async () => (await shown()).length, { timeout: 5000 }).toBe(1);
    expect((await shown())[0]).toEqual<ShownNotification>({
      title: 'Sam',
      body: 'This message is longer than fifty characters, so ...',
      tag: 'conversation-conv-123',
      data: { url: '/messages/conv-123' },
    });
    expect(await heard).toEqual({
      type: 'push',
      title: 'Sam',
      body: 'This message is longer than fifty characters, so ...',
      url: '/messages/conv-123',
    });

    // A link to another site is never opened from a notification.
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: t().baseUrl,
      registrationId: registrations.get(scope)!,
      data: JSON.stringify({ title: "It's a match!", body: 'x', url: 'https://evil.example/phish', tag: 'match-1' }),
    });
    await expect.poll(async () => (await shown()).find((n) => n.tag === 'match-1')?.data?.url, { timeout: 5000 }).toBe('/');
    await context.close();
  });
});
