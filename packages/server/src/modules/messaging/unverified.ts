import { type Clock, UNANSWERED_UNVERIFIED_CHAT_MS } from '@fmk/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { Bus } from '../../platform/bus.ts';
import { hideUnansweredUnverified } from './repo.ts';

/** How often the sweeper looks for unanswered chats from unverified men (the rule waits 24 h). */
export const UNVERIFIED_CHAT_SWEEP_MS = 10 * 60_000;
const SWEEP_BATCH = 500;

export interface UnverifiedChatSweeperDeps {
  db: Db;
  clock: Clock;
  bus: Bus;
  log?: FastifyBaseLogger;
}

/**
 * communicationSafety.autoDeleteUnverifiedChats: a conversation that a man without the verified
 * badge started and the member never answered leaves the member's list once the man's latest
 * message is 24 h old (core UNANSWERED_UNVERIFIED_CHAT_MS). Only the member's side: the man
 * keeps his copy and is not told. The member's open tabs drop it at once (a live 'conversation'
 * removed event, as his own delete sends).
 */
export class UnverifiedChatSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly deps: UnverifiedChatSweeperDeps,
    private readonly intervalMs = UNVERIFIED_CHAT_SWEEP_MS,
  ) {}

  /** One pass at the clock's now; returns how many conversations it hid. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.deps.clock.now().getTime() - UNANSWERED_UNVERIFIED_CHAT_MS);
    let total = 0;
    for (;;) {
      const hidden = await hideUnansweredUnverified(this.deps.db, cutoff, SWEEP_BATCH);
      if (hidden.length > 0)
        await this.deps.bus.publishBatch(
          hidden.map((h) => [[h.userId], { type: 'conversation', conversationId: h.conversationId, removed: true }] as const),
        );
      total += hidden.length;
      // Each side takes up to a batch: fewer than that on both means nothing is left.
      if (hidden.length < SWEEP_BATCH) return total;
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .catch((err: unknown) => {
          this.deps.log?.error({ err }, 'unverified chat sweep failed');
          return 0;
        })
        .finally(() => {
          this.running = null;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a pass in progress, so the database can close after. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
