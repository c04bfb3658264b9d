/** Code the web benchmark (web.ts) runs inside the page. */
export interface ProbeWindow {
  __tap: Promise<{ duration: number; stamp: number }>;
}

/**
 * In the page: when the frame holding the stamp was presented (the first task after the next
 * animation frame), counted from the tap's pointerdown; and, independently, the tap's Event
 * Timing duration (input to the next paint, as INP measures it). Event Timing reports only
 * entries of 16 ms or more, so a faster tap counts as 16.
 */
export function installTapProbe(): void {
  const w = window as unknown as ProbeWindow;
  let tapAt = 0;
  let eventTiming = 16;
  addEventListener('pointerdown', (ev) => (tapAt = ev.timeStamp), { capture: true, once: true });
  const events = new PerformanceObserver((list) => {
    for (const en of list.getEntries() as PerformanceEventTiming[])
      if (en.interactionId > 0) eventTiming = Math.max(eventTiming, en.duration);
  });
  events.observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
  w.__tap = new Promise((resolve) => {
    const mo = new MutationObserver(() => {
      if (!document.querySelector('.fmk-stamp')) return;
      mo.disconnect();
      requestAnimationFrame(() =>
        setTimeout(() => {
          const stamp = performance.now() - tapAt;
          // Event Timing entries arrive after the paint they end on.
          setTimeout(() => {
            events.disconnect();
            resolve({ duration: eventTiming, stamp });
          }, 300);
        }),
      );
    });
    mo.observe(document.body, { childList: true, subtree: true });
  });
}
