/** What the wheel needs of a socket (ws's WebSocket has both). */
export interface Pingable {
  ping(): void;
  terminate(): void;
}

/**
 * Protocol pings spread over the heartbeat. Each socket sits in one of `slices` slots (the
 * emptiest when it joins), and every tick (heartbeat / slices) visits one slot: a socket that has
 * not answered its previous ping is dropped, the others are pinged. Each socket is still pinged
 * once a heartbeat and dropped after missing one answer, but an instance with thousands of
 * sockets writes a slice of the pings at a time instead of all of them in one turn of the event
 * loop (2,000 at once held the loop, and every message in flight, for tens of milliseconds, and
 * their pongs came back together).
 */
export class PingWheel<S extends Pingable> {
  private readonly slots: Array<Set<S>>;
  private readonly slotOf = new Map<S, Set<S>>();
  private readonly answered = new WeakSet<S>();
  private turn = 0;

  constructor(slices: number) {
    this.slots = Array.from({ length: Math.max(1, slices) }, () => new Set<S>());
  }

  /** A new socket: counts as having answered, so its first visit pings it. */
  add(socket: S): void {
    let emptiest = this.slots[0]!;
    for (const slot of this.slots) if (slot.size < emptiest.size) emptiest = slot;
    emptiest.add(socket);
    this.slotOf.set(socket, emptiest);
    this.answered.add(socket);
  }

  /** Its pong came. */
  pong(socket: S): void {
    this.answered.add(socket);
  }

  remove(socket: S): void {
    this.slotOf.get(socket)?.delete(socket);
    this.slotOf.delete(socket);
  }

  /** Every socket held. */
  sockets(): IterableIterator<S> {
    return this.slotOf.keys();
  }

  get size(): number {
    return this.slotOf.size;
  }

  /** Visits the next slot: drops who did not answer, pings the rest. */
  tick(): void {
    const slot = this.slots[this.turn]!;
    this.turn = (this.turn + 1) % this.slots.length;
    for (const s of [...slot]) {
      if (!this.answered.has(s)) {
        this.remove(s);
        s.terminate();
        continue;
      }
      this.answered.delete(s);
      s.ping();
    }
  }
}
