import type { Me, UpdateMe } from '@fmk/core';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

/** PATCH /api/v1/me, then POST /api/v1/me/onboarding/complete → Me. */
export function useFinishOnboardingMutation() {
  return useMutation({
    mutationFn: async (patch: UpdateMe) => {
      await api<Me>('/me', { method: 'PATCH', body: patch });
      return api<Me>('/me/onboarding/complete', { method: 'POST', body: {} });
    },
  });
}
