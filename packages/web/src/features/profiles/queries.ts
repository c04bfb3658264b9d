import {
  effectiveTier,
  modeSwitchToast,
  type ProfileMode,
  type PublicProfile,
  type promptLikeResultSchema,
  TIER_LIMITS,
  UNLIMITED,
  type UpdateMe,
  USER_DATA_TTL_MS,
} from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { call } from '../../api/call.ts';
import { errorMessage } from '../../api/client.ts';
import { clientCache } from '../../shared/clientCache.ts';
import { discoveryKeys } from '../../shared/queryKeys.ts';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';

export const profileKeys = {
  all: ['profiles'] as const,
  detail: (userId: string) => [...profileKeys.all, 'detail', userId] as const,
};

const cacheKey = (userId: string) => `profile:${userId}`;

/**
 * GET /api/v1/users/:userId. User data is cached for 5 minutes (spec section 9) in the client
 * cache, which survives a query-cache reset only until appMode changes.
 */
export function useProfileQuery(userId: string) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const limited = user ? TIER_LIMITS[effectiveTier(user)].clickableProfiles !== UNLIMITED : false;
  return useQuery({
    queryKey: profileKeys.detail(userId),
    queryFn: async () => {
      const p = await call('GET /users/:userId', { params: { userId } });
      clientCache.set(cacheKey(userId), p, USER_DATA_TTL_MS);
      // Opening may have spent one of today's opens: the grid's count and locks are refetched on
      // its next visit (not now: it is not on screen).
      if (limited && !p.isMe) void queryClient.invalidateQueries({ queryKey: discoveryKeys.grids, refetchType: 'none' });
      return p;
    },
    initialData: () => clientCache.get(cacheKey(userId)) as PublicProfile | undefined,
    staleTime: USER_DATA_TTL_MS,
  });
}

type LikeResult = z.infer<typeof promptLikeResultSchema>;

/** Likes or unlikes a prompt answer, with the count changed at once and put back on failure. */
export function usePromptLikeMutation(userId: string) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const key = profileKeys.detail(userId);
  const patchPrompt = (promptId: string, change: (p: { likeCount: number; likedByMe: boolean }) => LikeResult) =>
    queryClient.setQueryData<PublicProfile>(key, (old) => {
      if (!old?.dating) return old;
      const prompts = old.dating.prompts.map((p) => {
        if (p.promptId !== promptId) return p;
        const r = change(p);
        return { ...p, likedByMe: r.liked, likeCount: r.likeCount };
      });
      const next = { ...old, dating: { ...old.dating, prompts } };
      clientCache.set(cacheKey(userId), next, USER_DATA_TTL_MS);
      return next;
    });
  return useMutation({
    mutationFn: ({ promptId, like }: { promptId: string; like: boolean }) =>
      call(like ? 'POST /users/:userId/prompts/:promptId/like' : 'DELETE /users/:userId/prompts/:promptId/like', {
        params: { userId, promptId },
      }),
    onMutate: async ({ promptId, like }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<PublicProfile>(key);
      patchPrompt(promptId, (p) => ({
        liked: like,
        likeCount: Math.max(0, p.likeCount + (like === p.likedByMe ? 0 : like ? 1 : -1)),
      }));
      return { before };
    },
    onSuccess: (r, { promptId }) => patchPrompt(promptId, () => r),
    onError: (e, _v, ctx) => {
      if (ctx?.before) queryClient.setQueryData(key, ctx.before);
      toast.error(errorMessage(e, 'That like did not go through. Please try again.'));
    },
  });
}

/** PATCH /api/v1/me → Me. */
export function useUpdateMeMutation() {
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: (patch: UpdateMe) => call('PATCH /me', { body: patch }),
    onSuccess: (me) => updateUser(me),
  });
}

/** POST /api/v1/me/photos (multipart "file") → Photo. */
export function useUploadPhotoMutation() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return call('POST /me/photos', { body: form });
    },
  });
}

/** DELETE /api/v1/me/photos/:id → 204. */
export function useDeletePhotoMutation() {
  return useMutation({ mutationFn: (id: string) => call('DELETE /me/photos/:photoId', { params: { photoId: id } }) });
}

/** PUT /api/v1/me/photos/order {photoIds} → Me. */
export function useReorderPhotosMutation() {
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: (photoIds: string[]) => call('PUT /me/photos/order', { body: { photoIds } }),
    onSuccess: (me) => updateUser(me),
  });
}

/**
 * A manual profile-mode switch (spec section 4): POST /me/mode, then the toast with its
 * description. The server logs the mode_switch event. The grid follows the mode, so it refreshes.
 */
export function useSwitchModeMutation({ onStart }: { onStart?: () => void } = {}) {
  const { updateUser } = useAuth();
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mode: ProfileMode) => call('POST /me/mode', { body: { mode, trigger: 'manual' } }),
    onMutate: () => onStart?.(),
    onSuccess: (me) => {
      updateUser(me);
      const t = modeSwitchToast(me.currentMode);
      toast.success(t.title, t.message);
      void queryClient.invalidateQueries({ queryKey: discoveryKeys.all });
    },
    onError: (e) => toast.error(errorMessage(e, 'Your mode could not be changed. Please try again.')),
  });
}
