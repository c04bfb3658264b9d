import {
  type Conversation,
  DEFAULT_SETTINGS,
  type Message,
  NOT_MATCHED_TEXT,
  toSettings,
  VERIFIED_CONTACTS_ONLY_TEXT,
} from '@fmk/core';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, me, serve, session, signInStored, start } from '../../test/fixtures.tsx';
import { VERIFIED_LABEL } from '../../ui/VerifiedBadge.tsx';
import { handleMessagingEvent } from './queries.ts';
import { messagingStore, OUTBOX_KEY } from './store.ts';

const user = me();

function conversation(over: Partial<Conversation> = {}): Conversation {
  return {
    id: 'c1',
    type: 'matched',
    mode: 'dating',
    matchType: 'mixed',
    isAccepted: true,
    other: { uid: 'u2', displayName: 'Alex', photoURL: null, verified: false, isOnline: true },
    lastMessage: { id: 'x1', senderId: 'u2', type: 'text', content: 'Coffee later?', timestamp: new Date().toISOString() },
    lastActivity: new Date().toISOString(),
    unreadCount: 0,
    typing: false,
    createdAt: '2030-01-01T00:00:00.000Z',
    ...over,
  };
}

function message(over: Partial<Message> = {}): Message {
  return {
    id: 'm1',
    seq: 1,
    conversationId: 'c1',
    senderId: 'u1',
    receiverId: 'u2',
    clientId: 'client-00001',
    type: 'text',
    content: 'hey',
    timestamp: new Date().toISOString(),
    status: 'sent',
    metadata: {},
    ...over,
  };
}

const base = {
  'GET /api/v1/auth/session': session(user),
  'GET /api/v1/badges': () => json(200, { messages: 0 }),
  'GET /api/v1/matches': () => json(200, []),
  'GET /api/v1/likes': () => json(200, { count: 0, unseen: 0, items: [], locked: false }),
};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  messagingStore.reset();
  signInStored(user);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  messagingStore.reset();
});

describe('/messages', () => {
  it('lists conversations newest first with previews, unread badges and the online state', async () => {
    const older = new Date(Date.now() - 2 * 3600_000).toISOString();
    serve({
      ...base,
      'GET /api/v1/conversations': () =>
        json(200, [
          conversation({
            id: 'c2',
            other: { uid: 'u3', displayName: 'Ben', photoURL: null, verified: false, isOnline: false },
            lastMessage: { id: 'x2', senderId: 'u3', type: 'photo', content: '', timestamp: older },
            lastActivity: older,
            unreadCount: 3,
          }),
          conversation({ unreadCount: 0 }),
        ]),
    });
    start('/messages');
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const links = within(list).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('aria-label'))).toEqual(['Alex, online', 'Ben, 3 unread']);
    expect(links[0]?.getAttribute('href')).toBe('/messages/c1');
    expect(within(links[1] as HTMLElement).getByText('📷 Photo')).toBeTruthy();
    expect(within(links[1] as HTMLElement).getByText('2h ago')).toBeTruthy();
    expect(screen.getAllByTestId('unread-badge').map((b) => b.textContent)).toEqual(['3']);
  });

  it('shows an empty state without conversations', async () => {
    serve({ ...base, 'GET /api/v1/conversations': () => json(200, []) });
    start('/messages');
    expect(await screen.findByRole('heading', { name: 'No conversations yet' })).toBeTruthy();
  });
});

const chatRoutes = {
  ...base,
  'GET /api/v1/conversations/c1': () => json(200, conversation()),
  'GET /api/v1/conversations': () => json(200, [conversation()]),
  'GET /api/v1/conversations/c1/messages': () => json(200, { messages: [], hasMore: false }),
  'POST /api/v1/conversations/c1/typing': () => new Response(null, { status: 204 }),
  'POST /api/v1/conversations/c1/read': () => new Response(null, { status: 204 }),
};

async function type(text: string) {
  const box = await screen.findByRole('textbox', { name: 'Message' });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Send' }));
}

describe('/messages/:conversationId', () => {
  it("shows a verified man's badge beside his name in the chat's header", async () => {
    const verified = conversation({ other: { uid: 'u2', displayName: 'Alex', photoURL: null, verified: true, isOnline: true } });
    serve({ ...chatRoutes, 'GET /api/v1/conversations/c1': () => json(200, verified) });
    start('/messages/c1');
    const name = await screen.findByTestId('chat-name');
    expect(within(name.parentElement as HTMLElement).getByRole('img', { name: VERIFIED_LABEL })).toBeTruthy();
  });

  it('shows a withheld photo as the placeholder, and fetches its URL only when he taps', async () => {
    const photo = { id: 'p1', url: null, width: 240, height: 240, sensitive: true, withheld: true };
    const withheld = message({ id: 'm9', senderId: 'u2', receiverId: 'u1', type: 'photo', content: '', metadata: { photo } });
    const calls = serve({
      ...chatRoutes,
      'GET /api/v1/me/settings': () => json(200, toSettings(DEFAULT_SETTINGS, null)),
      'GET /api/v1/conversations/c1/messages': () => json(200, { messages: [withheld], hasMore: false }),
      'GET /api/v1/messages/m9/photo-url': () => json(200, { url: '/api/v1/messages/photos/p1?e=1&s=x' }),
    });
    start('/messages/c1');
    const blurred = await screen.findByRole('button', { name: 'Sensitive photo, blurred. Tap to reveal' });
    expect(screen.queryByRole('img', { name: 'Picture he sent' })).toBeNull();
    expect(calls.some((c) => c.key === 'GET /api/v1/messages/m9/photo-url')).toBe(false);
    fireEvent.click(blurred);
    const img = await screen.findByRole('img', { name: 'Picture he sent' });
    expect(img.getAttribute('src')).toBe('/api/v1/messages/photos/p1?e=1&s=x');
  });

  it('sends with a fresh clientId and shows the bubble at once', async () => {
    let answer: (r: Response) => void = () => undefined;
    const calls = serve({
      ...chatRoutes,
      'POST /api/v1/conversations/c1/messages': () => new Promise<Response>((r) => (answer = r)),
    });
    start('/messages/c1');
    await screen.findByText('Say hi to Alex. Your messages appear here.');
    await type('hey there');
    const list = screen.getByRole('list', { name: 'Messages' });
    expect(within(list).getByText('hey there')).toBeTruthy();
    expect(within(list).getByText('Sending…')).toBeTruthy();
    const sent = calls.find((c) => c.key === 'POST /api/v1/conversations/c1/messages');
    const body = sent?.body as { clientId: string; type: string; content: string };
    expect(body.clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).toMatchObject({ type: 'text', content: 'hey there' });
    answer(json(201, message({ clientId: body.clientId, content: 'hey there' })));
    expect(await within(list).findByText('Sent')).toBeTruthy();
    expect(within(list).getAllByText('hey there')).toHaveLength(1);
  });

  it('queues a send that fails offline and resends it with the same clientId when back online', async () => {
    let online = false;
    const calls = serve({
      ...chatRoutes,
      'POST /api/v1/conversations/c1/messages': (init) => {
        if (!online) return Promise.reject(new TypeError('Failed to fetch'));
        const b = JSON.parse(String(init?.body)) as { clientId: string };
        return json(201, message({ clientId: b.clientId, content: 'are you there?' }));
      },
    });
    start('/messages/c1');
    await type('are you there?');
    expect(await screen.findByText('Waiting for connection')).toBeTruthy();
    const stored = JSON.parse(localStorage.getItem(OUTBOX_KEY) ?? '[]') as { clientId: string }[];
    expect(stored).toHaveLength(1);
    online = true;
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('Sent')).toBeTruthy();
    const posts = calls.filter((c) => c.key === 'POST /api/v1/conversations/c1/messages');
    expect(posts).toHaveLength(2);
    const ids = posts.map((p) => (p.body as { clientId: string }).clientId);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[0]).toBe(stored[0]?.clientId);
    expect(localStorage.getItem(OUTBOX_KEY)).toBeNull();
  });

  it('says the daily limit once, however many sends it refuses and even when a reconnect retries them', async () => {
    const answers: ((r: Response) => void)[] = [];
    const calls = serve({
      ...chatRoutes,
      'POST /api/v1/conversations/c1/messages': () => new Promise<Response>((r) => answers.push(r)),
    });
    start('/messages/c1');
    await screen.findByText('Say hi to Alex. Your messages appear here.');
    await type('one more');
    // The socket reconnects while the send is on its way: its flush must not send it again.
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    await type('and another');
    await waitFor(() => expect(answers).toHaveLength(2));
    const refusal = { error: 'limit_reached', message: 'Send more messages with Premium membership...' };
    await act(async () => {
      for (const answer of answers) answer(json(403, refusal));
    });
    expect(await screen.findByText('Daily message limit reached')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Sending…')).toBeNull());
    expect(screen.getAllByText('Daily message limit reached')).toHaveLength(1);
    expect(calls.filter((c) => c.key === 'POST /api/v1/conversations/c1/messages')).toHaveLength(2);
  });

  it('ignores an incoming message it already has, and marks it read', async () => {
    const calls = serve(chatRoutes);
    const { queryClient } = start('/messages/c1');
    await screen.findByText('Say hi to Alex. Your messages appear here.');
    const incoming = message({
      id: 'm7',
      seq: 7,
      senderId: 'u2',
      receiverId: 'u1',
      clientId: 'client-xyz01',
      content: 'hello you',
    });
    const show = vi.fn(() => 't');
    const deps = { queryClient, show, go: () => undefined, path: () => '/messages/c1' };
    act(() => {
      handleMessagingEvent({ type: 'message', message: incoming } as never, deps);
      handleMessagingEvent({ type: 'message', message: incoming } as never, deps);
    });
    const list = screen.getByRole('list', { name: 'Messages' });
    expect(within(list).getAllByText('hello you')).toHaveLength(1);
    // On that chat: no toast, and read up to its seq.
    expect(show).not.toHaveBeenCalled();
    await waitFor(() => expect(calls.find((c) => c.key === 'POST /api/v1/conversations/c1/read')?.body).toEqual({ upTo: 7 }));
  });

  it('turns the typing indicator off by itself after 3 s', async () => {
    serve(chatRoutes);
    const { queryClient } = start('/messages/c1');
    await screen.findByText('Say hi to Alex. Your messages appear here.');
    vi.useFakeTimers();
    const deps = { queryClient, show: () => 't', go: () => undefined };
    act(() => {
      handleMessagingEvent({ type: 'typing', conversationId: 'c1', userId: 'u2', typing: true } as never, deps);
    });
    expect(screen.getAllByText('typing…').length).toBeGreaterThan(0);
    act(() => vi.advanceTimersByTime(2900));
    expect(screen.queryAllByText('typing…').length).toBeGreaterThan(0);
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryAllByText('typing…')).toHaveLength(0);
  });

  it('toasts a message for another chat with the sender and the text, and Reply opens it', async () => {
    serve({ ...chatRoutes, 'GET /api/v1/conversations/c1': () => json(200, conversation()) });
    const { queryClient } = start('/grid');
    const show = vi.fn(() => 't');
    const go = vi.fn();
    queryClient.setQueryData(['messaging', 'conversations'], [conversation()]);
    const long = 'x'.repeat(80);
    handleMessagingEvent(
      { type: 'message', message: message({ id: 'm9', seq: 9, senderId: 'u2', receiverId: 'u1', content: long }) } as never,
      { queryClient, show, go, path: () => '/grid' },
    );
    await waitFor(() => expect(show).toHaveBeenCalledTimes(1));
    const input = (
      show.mock.calls[0] as unknown as [{ type: string; title: string; message: string; action: { onClick: () => void } }]
    )[0];
    expect(input).toMatchObject({ type: 'message', title: 'Alex' });
    expect(input.message.length).toBeLessThanOrEqual(60);
    input.action.onClick();
    expect(go).toHaveBeenCalledWith('/messages/c1');
  });
});

describe('/messages/chat/:userId refused', () => {
  it('offers Platinum for the tier refusal and phone verification for his safety setting, each with the server’s words', async () => {
    serve({
      ...base,
      'POST /api/v1/conversations': () => json(403, { error: 'forbidden', message: VERIFIED_CONTACTS_ONLY_TEXT }),
    });
    start('/messages/chat/u2');
    expect(await screen.findByText(VERIFIED_CONTACTS_ONLY_TEXT)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Verify your phone' }).getAttribute('href')).toBe('/settings');
    expect(screen.queryByRole('link', { name: 'See Platinum' })).toBeNull();
    cleanup();

    serve({ ...base, 'POST /api/v1/conversations': () => json(403, { error: 'limit_reached', message: NOT_MATCHED_TEXT }) });
    start('/messages/chat/u3');
    expect(await screen.findByText(NOT_MATCHED_TEXT)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See Platinum' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Verify your phone' })).toBeNull();
  });
});
