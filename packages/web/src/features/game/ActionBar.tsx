import { type AppMode, type GameAction, selectionTypesFor } from '@fmk/core';
import { type ReactNode, type RefObject, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { CloseIcon, FlameIcon, HeartIcon, StarIcon } from '../../ui/icons.tsx';

const LONG_PRESS_MS = 550;

const LOOK: Record<GameAction, { label: string; icon: ReactNode; className: string }> = {
  fuck: {
    label: 'Fuck',
    icon: <FlameIcon width={28} height={28} />,
    className: 'size-16 bg-primary text-white shadow-lg shadow-primary/30 hover:bg-primary-strong',
  },
  marry: {
    label: 'Marry',
    icon: <HeartIcon width={28} height={28} fill="currentColor" />,
    className: 'size-16 bg-white text-primary-strong ring-2 ring-primary-strong shadow-lg hover:bg-primary-soft',
  },
  kill: {
    label: 'Kill',
    icon: <CloseIcon width={26} height={26} strokeWidth={2.5} />,
    className: 'size-14 bg-white text-ink ring-1 ring-line shadow-md hover:bg-canvas',
  },
};

/**
 * The game's buttons (spec sections 1 and 3): the selection types of the app mode, then kill.
 * "Super" arms a super fuck / super marry for the next tap; a long press does one at once.
 */
export function ActionBar({
  appMode,
  name,
  disabled,
  onPick,
}: {
  appMode: AppMode;
  name: string;
  disabled?: boolean;
  onPick: (action: GameAction, isSuper: boolean) => void;
}) {
  const [superOn, setSuperOn] = useState(false);
  const actions: GameAction[] = ['kill', ...selectionTypesFor(appMode)];
  return (
    // Opaque white, no backdrop blur: a blurred backdrop is redrawn with every frame under it (the
    // stamp's frame covers the whole screen), ~30 ms on a phone drawing in software.
    <div className="sticky bottom-[calc(3.5rem+1px+env(safe-area-inset-bottom))] z-10 mt-auto border-t border-line bg-white px-4 pt-2 pb-3">
      <div className="flex items-end justify-center gap-5">
        {actions.map((a) => (
          <ActionButton
            key={a}
            action={a}
            name={name}
            isSuper={superOn && a !== 'kill'}
            disabled={disabled}
            onPick={(longPress) => {
              const s = a !== 'kill' && (superOn || longPress);
              // Only when armed: a render of the bar here would delay the stamp's frame.
              if (superOn) setSuperOn(false);
              onPick(a, s);
            }}
          />
        ))}
        <button
          type="button"
          aria-pressed={superOn}
          disabled={disabled}
          onClick={() => setSuperOn((v) => !v)}
          className={`flex flex-col items-center gap-1 text-sm font-semibold ${superOn ? 'text-primary-strong' : 'text-muted'}`}
        >
          <span
            className={`flex size-11 items-center justify-center rounded-full ring-1 transition-colors ${
              superOn ? 'bg-amber-400 text-ink ring-amber-500' : 'bg-white text-amber-600 ring-line'
            }`}
          >
            <StarIcon width={22} height={22} fill={superOn ? 'currentColor' : 'none'} />
          </span>
          Super
        </button>
      </div>
      <p className="mt-1 text-center text-xs text-muted" aria-live="polite">
        {superOn ? 'Super is on: your next fuck or marry tells him at once.' : 'Long-press fuck or marry for a super.'}
      </p>
    </div>
  );
}

function ActionButton({
  action,
  name,
  isSuper,
  disabled,
  onPick,
}: {
  action: GameAction;
  name: string;
  isSuper: boolean;
  disabled?: boolean;
  onPick: (longPress: boolean) => void;
}) {
  const look = LOOK[action];
  const ref = useRef<HTMLButtonElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const fired = useRef(false);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  // A touch picks on release (onPointerUp below). Cancelling its touchstart (React's own touch
  // listeners are passive, so natively) spares the main thread the tap gesture's work, which the
  // browser does before the stamp's frame: a hit test with a forced restyle, the :active press
  // style, then emulated mouse events, focus and a click, which alone took ~80 ms at 4x CPU.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const cancel = (e: TouchEvent) => {
      if (e.cancelable) e.preventDefault();
    };
    el.addEventListener('touchstart', cancel, { passive: false });
    return () => el.removeEventListener('touchstart', cancel);
  }, []);
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  const label = `${isSuper ? 'Super ' : ''}${look.label.toLowerCase()}`;
  return (
    <div className="flex flex-col items-center gap-1">
      <button
        ref={ref}
        type="button"
        disabled={disabled}
        aria-label={`${label[0]?.toUpperCase()}${label.slice(1)} ${name}`}
        onPointerDown={() => {
          fired.current = false;
          cancel();
          if (action === 'kill') return;
          timer.current = setTimeout(() => {
            fired.current = true;
            onPick(true);
          }, LONG_PRESS_MS);
        }}
        onPointerUp={(e) => {
          cancel();
          if (fired.current || disabled) return;
          // A tap picks on release, not on a click (a touch sends none, its touchstart being
          // cancelled; a mouse sends one a frame or two later, which is swallowed).
          const r = e.currentTarget.getBoundingClientRect();
          if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) return;
          fired.current = true;
          onPick(false);
        }}
        onPointerLeave={cancel}
        onContextMenu={(e) => e.preventDefault()}
        onClick={() => {
          // Keyboard and assistive technology activate with a click alone.
          if (fired.current) {
            fired.current = false;
            return;
          }
          cancel();
          onPick(false);
        }}
        className={`relative flex touch-manipulation items-center justify-center rounded-full transition-transform select-none active:scale-95 disabled:opacity-50 ${look.className}`}
      >
        {look.icon}
        {isSuper ? (
          <span className="absolute -top-1 -right-1 flex size-6 items-center justify-center rounded-full bg-amber-400 text-ink ring-2 ring-white">
            <StarIcon width={14} height={14} fill="currentColor" />
          </span>
        ) : null}
      </button>
      <span className="text-sm font-semibold text-ink" aria-hidden="true">
        {isSuper ? `Super ${look.label.toLowerCase()}` : look.label}
      </span>
    </div>
  );
}

const STAMP: Record<GameAction, { text: string; className: string }> = {
  fuck: { text: 'FUCK', className: 'border-primary-strong text-primary-strong' },
  marry: { text: 'MARRY', className: 'border-pink-700 text-pink-700' },
  kill: { text: 'KILL', className: 'border-ink text-ink' },
};

/** The choice painted over the profile before moving on (optimistic: the server answers later). */
export function Stamp({ action, isSuper, name }: { action: GameAction; isSuper: boolean; name: string }) {
  const s = STAMP[action];
  return (
    <div className="pointer-events-none fixed inset-0 z-30 flex items-center justify-center bg-white/40">
      <div
        role="status"
        aria-label={`${isSuper ? 'Super ' : ''}${action} — ${name}`}
        className={`fmk-stamp rounded-2xl border-[6px] bg-white/90 px-6 py-2 text-5xl font-black tracking-widest ${s.className}`}
      >
        {isSuper ? <span className="block text-center text-lg tracking-[0.3em]">SUPER</span> : null}
        {s.text}
      </div>
    </div>
  );
}

export interface StampHandle {
  show(pick: { action: GameAction; isSuper: boolean }): void;
}

/**
 * Holds the stamp in state of its own, so that showing it renders this layer alone: the tap
 * paints its result without waiting for the whole profile screen to render again.
 */
export function StampLayer({ handle, name }: { handle: RefObject<StampHandle | null>; name: string }) {
  const [pick, setPick] = useState<{ action: GameAction; isSuper: boolean } | null>(null);
  useImperativeHandle(handle, () => ({ show: setPick }), []);
  return pick ? <Stamp action={pick.action} isSuper={pick.isSuper} name={name} /> : null;
}
