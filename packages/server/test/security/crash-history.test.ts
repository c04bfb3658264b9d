import { describe, expect, it } from 'vitest';
import { checkConversation, mergeVerdicts, type Sent, type Stored } from './crash-history.ts';

/** The crash test's checker finds each kind of broken history (a checker that never fails proves nothing). */
describe('the crash history checker', () => {
  const sent = (sender: string, n: number, seq: number | null): Sent => ({
    sender,
    n,
    clientId: `${sender}-${n}`,
    content: `${sender} #${n}`,
    ack: seq === null ? null : { id: `m-${sender}-${n}`, seq, replay: false },
  });
  const stored = (s: Sent, seq = s.ack?.seq ?? 0): Stored => ({
    id: s.ack?.id ?? `m-${s.sender}-${s.n}`,
    seq,
    senderId: s.sender,
    clientId: s.clientId,
    content: s.content,
  });
  const a = [sent('a', 0, 1), sent('a', 1, 3), sent('a', 2, 5)];
  const b = [sent('b', 0, 2), sent('b', 1, 4), sent('b', 2, null)];
  const good = [stored(a[0]!), stored(b[0]!), stored(a[1]!), stored(b[1]!), stored(a[2]!)];

  it('passes a whole history, and one holding an unacknowledged message that was written (its answer lost)', () => {
    const verdict = checkConversation([...a, ...b], good);
    expect(verdict).toEqual({ sent: 6, acknowledged: 5, lost: [], duplicated: [], outOfOrder: [], phantom: [] });
    expect(checkConversation([...a, ...b], [...good, stored(b[2]!, 6)]).lost).toEqual([]);
  });

  it('finds a lost acknowledged message, and one stored under another seq', () => {
    expect(
      checkConversation(
        [...a, ...b],
        good.filter((m) => m.clientId !== 'b-1'),
      ).lost,
    ).toEqual(['b-1 (acknowledged as seq 4)']);
    const moved = good.map((m) => (m.clientId === 'a-2' ? { ...m, seq: 9 } : m));
    expect(checkConversation([...a, ...b], moved).lost).toEqual(['a-2 (acknowledged as seq 5)']);
  });

  it('finds a message stored twice, a history out of order, and one nobody sent', () => {
    expect(checkConversation([...a, ...b], [...good, stored(a[2]!, 7)]).duplicated).toEqual(['a-2 ×2']);
    const swapped = [good[0]!, good[2]!, good[1]!, good[3]!, good[4]!];
    expect(checkConversation([...a, ...b], swapped).outOfOrder).toEqual(['seq 2 after seq 3']);
    const reordered = [stored(a[1]!, 1), stored(a[0]!, 3)];
    expect(checkConversation(a.slice(0, 2), reordered).outOfOrder).toEqual(["a's #0 after his #1"]);
    const stranger: Stored = { id: 'x', seq: 8, senderId: 'c', clientId: 'c-0', content: 'hi' };
    expect(checkConversation([...a, ...b], [...good, stranger]).phantom).toEqual(['x (c-0)']);
  });

  it('adds up the conversations', () => {
    const one = checkConversation(a, [stored(a[0]!), stored(a[1]!)]);
    const two = checkConversation(b, [stored(b[0]!), stored(b[0]!, 9)]);
    expect(mergeVerdicts([one, two])).toMatchObject({ sent: 6, acknowledged: 5, duplicated: ['b-0 ×2'] });
    expect(mergeVerdicts([one, two]).lost).toEqual(['a-2 (acknowledged as seq 5)', 'b-1 (acknowledged as seq 4)']);
  });
});
