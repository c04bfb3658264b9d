/**
 * The ringtone and the ringback, synthesised with WebAudio (no sound file to download). The
 * incoming tone is two bright chimes every 2 s; the caller hears a soft 440+480 Hz ringback,
 * 1 s on and 3 s off. A browser that has not been touched yet may keep audio suspended: the
 * phone then vibrates where it can and the screen still rings.
 */
export class Ringtone {
  private ctx: AudioContext | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  start(kind: 'incoming' | 'ringback'): void {
    this.stop();
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    try {
      this.ctx = new Ctx();
    } catch {
      return;
    }
    void this.ctx.resume().catch(() => undefined);
    const play = () => (kind === 'incoming' ? this.chimes() : this.ringback());
    play();
    this.timer = setInterval(play, kind === 'incoming' ? 2000 : 4000);
  }

  private tone(freqs: number[], at: number, length: number, volume: number): void {
    const ctx = this.ctx;
    if (!ctx) return;
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(volume, at + 0.02);
    gain.gain.setValueAtTime(volume, at + length - 0.05);
    gain.gain.linearRampToValueAtTime(0, at + length);
    gain.connect(ctx.destination);
    for (const f of freqs) {
      const osc = ctx.createOscillator();
      osc.type = 'sine';
      osc.frequency.value = f;
      osc.connect(gain);
      osc.start(at);
      osc.stop(at + length);
    }
  }

  private chimes(): void {
    const t = this.ctx?.currentTime ?? 0;
    this.tone([880, 1320], t, 0.35, 0.18);
    this.tone([988, 1480], t + 0.45, 0.45, 0.18);
    navigator.vibrate?.([300, 150, 300]);
  }

  private ringback(): void {
    this.tone([440, 480], this.ctx?.currentTime ?? 0, 1, 0.06);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    void this.ctx?.close().catch(() => undefined);
    this.ctx = null;
  }
}
