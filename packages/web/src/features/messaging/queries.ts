import { AUTH_STORAGE_KEYS, type Conversation, DISPLAY_DEFAULTS, type Message, type ToastInput } from '@fmk/core';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { gameKeys, messagingKeys } from '../../shared/queryKeys.ts';
import { messagingStore } from './store.ts';

const enc = encodeURIComponent;

/** GET /conversations: newest activity first; live events refresh it. */
const conversationsQuery = queryOptions({
  queryKey: messagingKeys.conversations(),
  queryFn: () => call('GET /conversations'),
  staleTime: 15_000,
});

export function useConversationsQuery() {
  return useQuery(conversationsQuery);
}

export function useConversationQuery(id: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: messagingKeys.conversation(id),
    queryFn: () => call('GET /conversations/:id', { params: { id } }),
    initialData: () => queryClient.getQueryData<Conversation[]>(messagingKeys.conversations())?.find((c) => c.id === id),
    retry: false,
  });
}

export const openConversation = (userId: string) => call('POST /conversations', { body: { userId } });

export async function loadMessages(conversationId: string, before?: number): Promise<void> {
  const page = await call('GET /conversations/:id/messages', {
    params: { id: conversationId },
    query: { before: before || undefined },
  });
  messagingStore.addPage(conversationId, page, before !== undefined);
}

export const uploadMessagePhoto = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return call('POST /messages/photos', { body: form });
};

export const sendTyping = (conversationId: string, typing: boolean) =>
  call('POST /conversations/:id/typing', { params: { id: conversationId }, body: { typing } });

export const markRead = (conversationId: string, upTo: number) =>
  call('POST /conversations/:id/read', { params: { id: conversationId }, body: { upTo } });

/** DELETE /conversations/:id: gone for me only (deletedFor). */
export function useDeleteConversationMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('DELETE /conversations/:id', { params: { id } }),
    onSuccess: (_d, id) => {
      queryClient.setQueryData<Conversation[]>(messagingKeys.conversations(), (old) => old?.filter((c) => c.id !== id));
      messagingStore.remove(id);
      void queryClient.invalidateQueries({ queryKey: gameKeys.badges() });
    },
  });
}

/** The signed-in user's id, as stored by the auth flow (the live handler has no React context). */
export function storedUserId(): string | null {
  try {
    const raw = localStorage.getItem(AUTH_STORAGE_KEYS.user);
    return raw ? ((JSON.parse(raw) as { uid?: string }).uid ?? null) : null;
  } catch {
    return null;
  }
}

/** After a reconnect: every message missed while away, in pages, merged without duplicates. */
export async function catchUp(): Promise<void> {
  if (messagingStore.maxSeq === 0) return;
  for (let i = 0; i < 20; i++) {
    const page = await call('GET /messages/since', { query: { after: messagingStore.maxSeq } });
    messagingStore.merge(page.messages);
    if (!page.hasMore || page.messages.length === 0) return;
  }
}

export const MESSAGE_PREVIEW_CHARS = 60;
export function preview(m: Pick<Message, 'type' | 'content'>, max = MESSAGE_PREVIEW_CHARS): string {
  if (m.type === 'photo') return '📷 Photo';
  const text = m.content.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function messageToastInput(name: string, m: Message, go: (p: string) => void): ToastInput {
  return {
    type: 'message',
    title: name,
    message: preview(m),
    action: { label: 'Reply', onClick: () => go(`/messages/${enc(m.conversationId)}`) },
  };
}

type LiveMessagingEvent =
  | { type: 'ready'; uid: string }
  | { type: 'message'; message: Message }
  | { type: 'delivered' | 'read'; conversationId: string; upTo: number }
  | { type: 'typing'; conversationId: string; userId: string; typing: boolean }
  | { type: 'conversation'; conversationId: string; removed: boolean }
  | { type: 'presence'; userId: string; isOnline: boolean };

let me: string | null = null;

/**
 * The messaging half of the live channel: the store, the conversation list, and a message
 * toast when the message is not for the chat on screen. Returns false for other events.
 */
export function handleMessagingEvent(
  event: { type: string },
  deps: { queryClient: QueryClient; show: (t: ToastInput) => string; go: (p: string) => void; path?: () => string },
): boolean {
  const e = event as LiveMessagingEvent;
  const { queryClient } = deps;
  const path = deps.path ?? (() => window.location.pathname);
  const refreshList = () => void queryClient.invalidateQueries({ queryKey: messagingKeys.conversations() });
  switch (e.type) {
    case 'ready':
      me = e.uid;
      // (Re)connected: fetch what was missed, send what waited, refresh the list.
      void catchUp().catch(() => undefined);
      void messagingStore.flush();
      refreshList();
      // Loaded once a session even if the Messages tab is not opened: the offline copy then
      // holds the list, and the tab opens at once.
      if (queryClient.getQueryData(messagingKeys.conversations()) === undefined)
        void queryClient.prefetchQuery(conversationsQuery).catch(() => undefined);
      return true;
    case 'message': {
      const m = e.message;
      const added = messagingStore.merge([m]);
      const uid = me ?? storedUserId();
      if (m.senderId !== uid) {
        messagingStore.setTyping(m.conversationId, false);
        const onChat = path() === `/messages/${m.conversationId}`;
        const fresh = added.length > 0 || !messagingStore.view(m.conversationId).loaded;
        if (!onChat && fresh) void toastFor(m, deps);
      }
      refreshList();
      void queryClient.invalidateQueries({ queryKey: gameKeys.badges() });
      return true;
    }
    case 'delivered':
    case 'read':
      messagingStore.status(e.conversationId, e.type, e.upTo, me ?? storedUserId());
      return true;
    case 'typing':
      messagingStore.setTyping(e.conversationId, e.typing);
      return true;
    case 'conversation':
      if (e.removed) {
        messagingStore.remove(e.conversationId);
        queryClient.setQueryData<Conversation[]>(messagingKeys.conversations(), (old) =>
          old?.filter((c) => c.id !== e.conversationId),
        );
        queryClient.removeQueries({ queryKey: messagingKeys.conversation(e.conversationId) });
      } else void queryClient.invalidateQueries({ queryKey: messagingKeys.conversation(e.conversationId) });
      refreshList();
      void queryClient.invalidateQueries({ queryKey: gameKeys.badges() });
      return true;
    case 'presence': {
      const patch = (c: Conversation) => (c.other.uid === e.userId ? { ...c, other: { ...c.other, isOnline: e.isOnline } } : c);
      queryClient.setQueryData<Conversation[]>(messagingKeys.conversations(), (old) => old?.map(patch));
      queryClient.setQueriesData<Conversation>({ queryKey: [...messagingKeys.all, 'conversation'] }, (old) =>
        old ? patch(old) : old,
      );
      return true;
    }
    default:
      return false;
  }
}

/** One message toast; the sender's name comes from the list, else from the conversation. */
const toasted = new Set<string>();
async function toastFor(
  m: Message,
  deps: { queryClient: QueryClient; show: (t: ToastInput) => string; go: (p: string) => void },
) {
  if (toasted.has(m.id)) return;
  toasted.add(m.id);
  let c = deps.queryClient.getQueryData<Conversation[]>(messagingKeys.conversations())?.find((x) => x.id === m.conversationId);
  if (!c) c = await call('GET /conversations/:id', { params: { id: m.conversationId } }).catch(() => undefined);
  const name = c?.other.displayName?.trim() || DISPLAY_DEFAULTS.name;
  deps.show(messageToastInput(name, m, deps.go));
}
