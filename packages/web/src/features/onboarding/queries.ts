import type { UpdateMe } from '@fmk/core';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../api/call.ts';

/** PATCH /api/v1/me, then POST /api/v1/me/onboarding/complete → Me. */
export function useFinishOnboardingMutation() {
  return useMutation({
    mutationFn: async (patch: UpdateMe) => {
      await call('PATCH /me', { body: patch });
      return call('POST /me/onboarding/complete', { body: {} });
    },
  });
}
