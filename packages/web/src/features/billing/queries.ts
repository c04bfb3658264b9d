import type { BillingSummary, PaymentAnswer } from '@fmk/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { ApiError } from '../../api/client.ts';

export const billingKeys = {
  all: ['billing'] as const,
  summary: () => [...billingKeys.all, 'summary'] as const,
  plans: () => [...billingKeys.all, 'plans'] as const,
};

/** GET /plans: the plans on sale with today's prices (staff may change them). */
export function usePlansQuery() {
  return useQuery({ queryKey: billingKeys.plans(), queryFn: () => call('GET /plans'), retry: false });
}

/** The spec's outcome text of a refused payment call (402/409 answer `{success: false, error}`). */
export function paymentErrorText(e: unknown, fallback: string): string {
  if (e instanceof ApiError) return e.status === 402 || (e.status === 409 && e.code.includes(' ')) ? e.code : e.message;
  return fallback;
}

/** GET /billing: plan, subscription, cards, payments, stats and which card form to show. */
export function useBillingQuery() {
  return useQuery({ queryKey: billingKeys.summary(), queryFn: () => call('GET /billing') });
}

/** A fresh idempotency key per attempt the person makes; a retry of the same request reuses it. */
export const newIdempotencyKey = (): string => crypto.randomUUID();

function useBillingMutation<V>(fn: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // The tier may have changed: every screen reads again (the live `tier` event also does).
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export function useSubscribeMutation() {
  return useBillingMutation(
    (v: { planId: string; amount: number; sourceId?: string; key: string }): Promise<PaymentAnswer> =>
      call('POST /payments/subscription', {
        body: {
          subscription_plan: v.planId,
          amount_money: { amount: v.amount, currency: 'USD' },
          idempotency_key: v.key,
          autocomplete: true,
          ...(v.sourceId ? { source_id: v.sourceId } : {}),
        },
      }),
  );
}

/** POST /boost/purchase: one extra boost, charged once for its key. */
export function useBuyBoostMutation() {
  return useBillingMutation(
    (v: { sourceId?: string; key: string }): Promise<PaymentAnswer> =>
      call('POST /boost/purchase', { body: { idempotency_key: v.key, ...(v.sourceId ? { source_id: v.sourceId } : {}) } }),
  );
}

export function useCancelMutation() {
  return useBillingMutation((v: { id: string; atPeriodEnd: boolean }) =>
    call('POST /subscriptions/:id/cancel', { params: { id: v.id }, body: { atPeriodEnd: v.atPeriodEnd } }),
  );
}

export function useReactivateMutation() {
  return useBillingMutation((id: string) => call('POST /subscriptions/:id/reactivate', { params: { id } }));
}

export function useChangePlanMutation() {
  return useBillingMutation((v: { id: string; planId: string }) =>
    call('PUT /subscriptions/:id', { params: { id: v.id }, body: { plan_variation_id: v.planId } }),
  );
}

export function useAddCardMutation() {
  return useBillingMutation((sourceId: string) => call('POST /billing/cards', { body: { source_id: sourceId } }));
}

export function useRemoveCardMutation() {
  return useBillingMutation((id: string) => call('DELETE /billing/cards/:id', { params: { id } }));
}

export function useDefaultCardMutation() {
  return useBillingMutation((id: string) => call('POST /billing/cards/:id/default', { params: { id } }));
}

export type { BillingSummary };
