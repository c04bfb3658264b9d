/**
 * The crash test's history checker (in the manner of Jepsen's): what each client sent and was
 * told (its acknowledgements), against what the server holds afterwards. A message may be
 * written and its answer lost to a crash (the client retries with the same client id); what must
 * never happen is an acknowledged message missing, one message stored twice, or a conversation
 * whose order disagrees with the order its senders sent in.
 */

/** One message a client meant to send: the nth of its sender, and the answer once one came. */
export interface Sent {
  sender: string;
  n: number;
  clientId: string;
  content: string;
  /** The server's acknowledgement (201 new, or 200 for a retry of one it had stored), or null. */
  ack: { id: string; seq: number; replay: boolean } | null;
}

/** A message as the conversation's history answers it, oldest first. */
export interface Stored {
  id: string;
  seq: number;
  senderId: string;
  clientId: string;
  content: string;
}

export interface HistoryVerdict {
  sent: number;
  acknowledged: number;
  /** Acknowledged messages missing from the history (or stored under another id or seq). */
  lost: string[];
  /** Client ids stored more than once. */
  duplicated: string[];
  /** Places where the history's order breaks: a seq not rising, or a sender's nth after his (n+1)th. */
  outOfOrder: string[];
  /** Stored messages nobody sent (neither a known client id nor a known content). */
  phantom: string[];
}

/** Checks one conversation's history against what its clients sent. */
export function checkConversation(sent: readonly Sent[], history: readonly Stored[]): HistoryVerdict {
  const byClient = new Map(sent.map((s) => [s.clientId, s]));
  const stored = new Map<string, Stored[]>();
  for (const m of history) stored.set(m.clientId, [...(stored.get(m.clientId) ?? []), m]);

  const lost: string[] = [];
  for (const s of sent) {
    if (!s.ack) continue;
    const found = stored.get(s.clientId) ?? [];
    const same = found.find((m) => m.id === s.ack?.id && m.seq === s.ack.seq && m.content === s.content);
    if (!same) lost.push(`${s.clientId} (acknowledged as seq ${s.ack.seq})`);
  }
  const duplicated = [...stored].filter(([, ms]) => ms.length > 1).map(([id, ms]) => `${id} ×${ms.length}`);
  const phantom = history.filter((m) => !byClient.has(m.clientId)).map((m) => `${m.id} (${m.clientId})`);

  const outOfOrder: string[] = [];
  const lastN = new Map<string, number>();
  let lastSeq = 0;
  for (const m of history) {
    if (m.seq <= lastSeq) outOfOrder.push(`seq ${m.seq} after seq ${lastSeq}`);
    lastSeq = Math.max(lastSeq, m.seq);
    const s = byClient.get(m.clientId);
    if (!s) continue;
    const before = lastN.get(s.sender) ?? -1;
    if (s.n <= before) outOfOrder.push(`${s.sender}'s #${s.n} after his #${before}`);
    lastN.set(s.sender, Math.max(before, s.n));
  }
  return {
    sent: sent.length,
    acknowledged: sent.filter((s) => s.ack).length,
    lost,
    duplicated,
    outOfOrder,
    phantom,
  };
}

/** The verdicts of every conversation added up. */
export function mergeVerdicts(verdicts: readonly HistoryVerdict[]): HistoryVerdict {
  return {
    sent: verdicts.reduce((n, v) => n + v.sent, 0),
    acknowledged: verdicts.reduce((n, v) => n + v.acknowledged, 0),
    lost: verdicts.flatMap((v) => v.lost),
    duplicated: verdicts.flatMap((v) => v.duplicated),
    outOfOrder: verdicts.flatMap((v) => v.outOfOrder),
    phantom: verdicts.flatMap((v) => v.phantom),
  };
}
