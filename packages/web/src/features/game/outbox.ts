import type { SelectionBody, SelectionResult } from '@fmk/core';
import { isRetryable, sendSelection } from './queries.ts';

/**
 * Fuck and marry picks made without a network wait here, on the phone, and go when it is back,
 * each with the clientId it was made with (the server applies a pick once however often it
 * arrives). A kill needs no queue: it is done on the phone. Signing out drops what waits.
 */
export const SELECTION_OUTBOX_KEY = 'fmk:selection-outbox';

/** What a flush reports for each pick: the server's answer, or its refusal. */
export interface FlushHandlers {
  sent(result: SelectionResult): void;
  refused(error: unknown, pick: SelectionBody): void;
}

function read(): SelectionBody[] {
  try {
    const raw = localStorage.getItem(SELECTION_OUTBOX_KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? (list as SelectionBody[]) : [];
  } catch {
    return [];
  }
}

function write(list: readonly SelectionBody[]): void {
  try {
    if (list.length) localStorage.setItem(SELECTION_OUTBOX_KEY, JSON.stringify(list));
    else localStorage.removeItem(SELECTION_OUTBOX_KEY);
  } catch {
    // Storage full or blocked: the pick is lost with the page, as any unsent form would be.
  }
}

/** Keeps a pick for later; a second pick on the same man replaces the first (the latest choice wins). */
export function queueSelection(pick: SelectionBody): void {
  write([...read().filter((p) => p.targetId !== pick.targetId), pick]);
}

export function queuedSelections(): readonly SelectionBody[] {
  return read();
}

export function dropQueuedSelections(): void {
  write([]);
}

let flushing: Promise<void> | null = null;

/**
 * Sends what waits, in order. A pick lost on the way again stays (and the rest with it, for the
 * next time); one the server refuses (a limit, a block) leaves the queue and is reported.
 */
export function flushSelections(handlers: FlushHandlers, send = (b: SelectionBody) => sendSelection(b, [])): Promise<void> {
  if (flushing) return flushing;
  const run = async () => {
    for (const pick of read()) {
      try {
        const result = await send(pick);
        write(read().filter((p) => p.clientId !== pick.clientId));
        handlers.sent(result);
      } catch (e) {
        if (isRetryable(e)) return;
        write(read().filter((p) => p.clientId !== pick.clientId));
        handlers.refused(e, pick);
      }
    }
  };
  // Cleared in a later turn, after the assignment (an empty queue finishes at once).
  flushing = run().finally(() => {
    flushing = null;
  });
  return flushing;
}
