import type { MessagePage } from '@fmk/core';
import type { Sent, Stored } from './crash-history.ts';

/**
 * The crash test's clients: plain HTTP against the real server's port, each doing what the app
 * does after a failure: the same request again, with the same client id or idempotency key,
 * until an answer comes. A refused connection, a cut one, a timeout or a 5xx is a failure to
 * retry (the server is down or restarting, or its database is); any other refusal is a finding.
 */

export interface Member {
  id: string;
  token: string;
}

/** Counts the clients keep, for the report. */
export interface Tally {
  /** Requests that got no answer (cut, refused, timed out) or a 5xx, and were sent again. */
  retries: number;
  /** Of the retries, those the server answered with a 5xx (its database down, or a failure of its own). */
  serverErrors: number;
  /** Acknowledgements that were a retry's: the first attempt had been written, its answer lost. */
  replays: number;
  /** Answers that were neither success nor a retryable failure: each a broken promise. */
  refusals: string[];
}

export const newTally = (): Tally => ({ retries: 0, serverErrors: 0, replays: 0, refusals: [] });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class CrashClient {
  constructor(
    private readonly baseUrl: string,
    private readonly tally: Tally,
    /** Aborted when the test gives up: every retry loop ends. */
    private readonly stop: AbortSignal,
  ) {}

  /** Sends until an answer that is not a retryable failure; returns its status and body. */
  async call(method: 'GET' | 'POST', path: string, token: string, body?: object): Promise<{ status: number; body: unknown }> {
    for (let attempt = 0; ; attempt++) {
      if (this.stop.aborted) throw new Error(`gave up on ${method} ${path}: the test's time ran out`);
      try {
        const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.any([this.stop, AbortSignal.timeout(20_000)]),
        });
        const text = await res.text();
        if (res.status < 500) return { status: res.status, body: text ? JSON.parse(text) : null };
        this.tally.serverErrors += 1;
      } catch {
        // No answer: the server was killed mid-request, or is not listening yet.
      }
      this.tally.retries += 1;
      await sleep(Math.min(50 * 2 ** attempt, 500));
    }
  }
}

/** A sender's messages, in order, each sent only after the one before was acknowledged. */
export async function sendAll(
  client: CrashClient,
  tally: Tally,
  me: Member,
  conversationId: string,
  sent: Sent[],
  onAck: () => void,
) {
  for (const s of sent) {
    const r = await client.call('POST', `/conversations/${conversationId}/messages`, me.token, {
      clientId: s.clientId,
      content: s.content,
    });
    if (r.status !== 201 && r.status !== 200) {
      tally.refusals.push(`message ${s.clientId}: ${r.status} ${JSON.stringify(r.body)}`);
      return;
    }
    const m = r.body as { id: string; seq: number };
    s.ack = { id: m.id, seq: m.seq, replay: r.status === 200 };
    if (r.status === 200) tally.replays += 1;
    onAck();
  }
}

/** One payment: a Platinum subscription under one idempotency key, retried with it until answered. */
export interface Payment {
  member: Member;
  key: string;
  /** The acknowledged payment's id, or null. */
  paymentId: string | null;
}

export const PLATINUM = { subscription_plan: 'platinum-monthly', amount_money: { amount: 1999, currency: 'USD' } };

export async function pay(client: CrashClient, tally: Tally, p: Payment): Promise<void> {
  const r = await client.call('POST', '/payments/subscription', p.member.token, {
    ...PLATINUM,
    source_id: 'cnon:card-nonce-ok',
    idempotency_key: p.key,
  });
  const body = r.body as { success?: boolean; payment_id?: string };
  if (r.status !== 200 || !body.success || !body.payment_id) {
    tally.refusals.push(`payment ${p.key}: ${r.status} ${JSON.stringify(r.body)}`);
    return;
  }
  p.paymentId = body.payment_id;
}

/** Two members who choose each other at the same moment: their selections must make one match. */
export interface Pair {
  a: Member;
  b: Member;
  clientIds: [string, string];
  answered: number;
}

export async function choose(client: CrashClient, tally: Tally, pair: Pair): Promise<void> {
  const sides = [
    [pair.a, pair.b, pair.clientIds[0]],
    [pair.b, pair.a, pair.clientIds[1]],
  ] as const;
  await Promise.all(
    sides.map(async ([me, other, clientId]) => {
      const r = await client.call('POST', '/selections', me.token, { targetId: other.id, action: 'fuck', clientId });
      if (r.status !== 200) tally.refusals.push(`selection ${clientId}: ${r.status} ${JSON.stringify(r.body)}`);
      else pair.answered += 1;
    }),
  );
}

/** A conversation's whole history, oldest first, read back page by page as the app scrolls up. */
export async function readHistory(client: CrashClient, me: Member, conversationId: string): Promise<Stored[]> {
  const pages: Stored[][] = [];
  let before: number | null = null;
  for (;;) {
    const r = await client.call(
      'GET',
      `/conversations/${conversationId}/messages?limit=100${before ? `&before=${before}` : ''}`,
      me.token,
    );
    if (r.status !== 200) throw new Error(`reading ${conversationId}: ${r.status} ${JSON.stringify(r.body)}`);
    const page = r.body as MessagePage;
    pages.unshift(
      page.messages.map((m) => ({ id: m.id, seq: m.seq, senderId: m.senderId, clientId: m.clientId, content: m.content })),
    );
    const first = page.messages[0];
    if (!page.hasMore || !first) return pages.flat();
    before = first.seq;
  }
}

/** The members another one's match list names, with how often (each should be there once). */
export async function matchesOf(client: CrashClient, me: Member): Promise<Map<string, number>> {
  const r = await client.call('GET', '/matches', me.token);
  if (r.status !== 200) throw new Error(`reading matches: ${r.status} ${JSON.stringify(r.body)}`);
  const seen = new Map<string, number>();
  for (const m of r.body as { other: { uid: string } }[]) seen.set(m.other.uid, (seen.get(m.other.uid) ?? 0) + 1);
  return seen;
}
