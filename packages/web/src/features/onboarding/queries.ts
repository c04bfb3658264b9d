import type { Me, Photo, Prompt, UpdateMe } from '@fmk/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const promptKeys = { all: ['prompts'] as const };

/** GET /api/v1/prompts: the active prompts. */
export function usePromptsQuery() {
  return useQuery({ queryKey: promptKeys.all, queryFn: () => api<Prompt[]>('/prompts'), staleTime: 10 * 60_000 });
}

/** POST /api/v1/me/photos (multipart "file") → Photo. */
export function useUploadPhotoMutation() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api<Photo>('/me/photos', { method: 'POST', body: form });
    },
  });
}

/** DELETE /api/v1/me/photos/:id → 204. */
export function useDeletePhotoMutation() {
  return useMutation({ mutationFn: (id: string) => api<void>(`/me/photos/${encodeURIComponent(id)}`, { method: 'DELETE' }) });
}

/** PATCH /api/v1/me, then POST /api/v1/me/onboarding/complete → Me. */
export function useFinishOnboardingMutation() {
  return useMutation({
    mutationFn: async (patch: UpdateMe) => {
      await api<Me>('/me', { method: 'PATCH', body: patch });
      return api<Me>('/me/onboarding/complete', { method: 'POST', body: {} });
    },
  });
}
