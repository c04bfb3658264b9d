import type { blockedUserSchema } from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { call } from '../../api/call.ts';
import { discoveryKeys, gameKeys, messagingKeys } from '../../shared/queryKeys.ts';

export type BlockedUser = z.infer<typeof blockedUserSchema>;

export const safetyKeys = {
  all: ['safety'] as const,
  blocked: () => [...safetyKeys.all, 'blocked'] as const,
};

/** GET /me/blocked. */
export function useBlockedQuery() {
  return useQuery({ queryKey: safetyKeys.blocked(), queryFn: () => call('GET /me/blocked') });
}

/** POST /users/:id/block: he and our conversation disappear everywhere, so every list refetches. */
export function useBlockMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => call('POST /users/:id/block', { params: { id: userId } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: messagingKeys.all });
      void queryClient.invalidateQueries({ queryKey: gameKeys.all });
      void queryClient.invalidateQueries({ queryKey: safetyKeys.blocked() });
      void queryClient.invalidateQueries({ queryKey: discoveryKeys.all });
    },
  });
}

/** DELETE /users/:id/block. */
export function useUnblockMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => call('DELETE /users/:id/block', { params: { id: userId } }),
    onSuccess: (_d, userId) => {
      queryClient.setQueryData<BlockedUser[]>(safetyKeys.blocked(), (old) => old?.filter((u) => u.uid !== userId));
      void queryClient.invalidateQueries({ queryKey: discoveryKeys.all });
    },
  });
}
