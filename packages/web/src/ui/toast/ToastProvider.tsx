import { MAX_TOASTS, makeToast, pushToast, removeToast, type Toast, type ToastInput, type ToastType, timeLabel } from '@fmk/core';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { CloseIcon, FlameIcon, HeartIcon } from '../icons.tsx';

interface ToastApi {
  show(input: ToastInput): string;
  dismiss(id: string): void;
  success(title: string, message?: string): string;
  error(title: string, message?: string): string;
  info(title: string, message?: string): string;
  warning(title: string, message?: string): string;
}

const ToastContext = createContext<ToastApi | null>(null);

/** Spec section 8: a context hook outside its provider is a programming error, said plainly. */
export function useToast(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToast must be used within a ToastProvider');
  return ctx;
}

const accent: Record<ToastType, string> = {
  success: 'bg-emerald-600',
  error: 'bg-primary-strong',
  warning: 'bg-amber-500',
  info: 'bg-sky-600',
  match: 'bg-primary',
  message: 'bg-violet-600',
  location: 'bg-teal-600',
  upgrade: 'bg-amber-600',
  'super-fuck': 'bg-primary',
  'super-marry': 'bg-pink-600',
};

const SLIDE_OUT_MS = 200;
let counter = 0;

export function ToastProvider({ children, cap = MAX_TOASTS }: { children: ReactNode; cap?: number }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [leaving, setLeaving] = useState<ReadonlySet<string>>(new Set());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const remove = useCallback((id: string) => {
    setToasts((list) => removeToast(list, id));
    setLeaving((s) => {
      const next = new Set(s);
      next.delete(id);
      return next;
    });
    const t = timers.current.get(id);
    if (t) clearTimeout(t);
    timers.current.delete(id);
  }, []);

  const dismiss = useCallback(
    (id: string) => {
      setLeaving((s) => new Set(s).add(id));
      const t = timers.current.get(id);
      if (t) clearTimeout(t);
      timers.current.set(
        id,
        setTimeout(() => remove(id), SLIDE_OUT_MS),
      );
    },
    [remove],
  );

  const show = useCallback(
    (input: ToastInput) => {
      counter += 1;
      const toast = makeToast(input, `toast-${Date.now()}-${counter}`, Date.now());
      setToasts((list) => pushToast(list, toast, cap));
      timers.current.set(
        toast.id,
        setTimeout(() => dismiss(toast.id), toast.duration),
      );
      return toast.id;
    },
    [cap, dismiss],
  );

  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const t of all.values()) clearTimeout(t);
      all.clear();
    };
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      show,
      dismiss,
      success: (title, message) => show({ type: 'success', title, ...(message ? { message } : {}) }),
      error: (title, message) => show({ type: 'error', title, ...(message ? { message } : {}) }),
      info: (title, message) => show({ type: 'info', title, ...(message ? { message } : {}) }),
      warning: (title, message) => show({ type: 'warning', title, ...(message ? { message } : {}) }),
    }),
    [show, dismiss],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      <section
        aria-label="Notifications"
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 top-(--fmk-offline-inset) z-50 mx-auto flex w-full max-w-md flex-col gap-2 p-3"
      >
        {toasts.map((t) => (
          <ToastCard key={t.id} toast={t} leaving={leaving.has(t.id)} onDismiss={() => dismiss(t.id)} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

/** The game's moments (a match, a super) stand out from ordinary notices. */
const CELEBRATE: ReadonlySet<ToastType> = new Set(['match', 'super-fuck', 'super-marry']);

function ToastCard({ toast, leaving, onDismiss }: { toast: Toast; leaving: boolean; onDismiss: () => void }) {
  const big = CELEBRATE.has(toast.type);
  return (
    <div
      role={toast.type === 'error' ? 'alert' : 'status'}
      data-toast-type={toast.type}
      className={`fmk-toast-in pointer-events-auto overflow-hidden rounded-2xl border shadow-lg transition-all duration-200 ${
        big ? 'border-primary/40 bg-primary-soft' : 'border-line bg-white'
      } ${leaving ? 'translate-x-full opacity-0' : ''}`}
    >
      <div className="flex items-start gap-3 p-3">
        {big ? (
          <span
            className="flex size-10 shrink-0 items-center justify-center rounded-full bg-white text-primary-strong shadow-sm"
            aria-hidden="true"
          >
            {toast.type === 'super-fuck' ? (
              <FlameIcon width={22} height={22} />
            ) : (
              <HeartIcon width={22} height={22} fill="currentColor" />
            )}
          </span>
        ) : (
          <span className={`mt-1.5 size-2.5 shrink-0 rounded-full ${accent[toast.type]}`} aria-hidden="true" />
        )}
        <div className="min-w-0 flex-1">
          <p className={big ? 'text-lg font-extrabold text-ink' : 'text-sm font-semibold text-ink'}>{toast.title}</p>
          {toast.message ? <p className="text-sm text-muted">{toast.message}</p> : null}
          <p className="mt-0.5 text-xs text-muted">{timeLabel(toast.timestamp, Date.now())}</p>
          {toast.action ? (
            <button
              type="button"
              className={
                big
                  ? 'mt-2 inline-flex min-h-9 items-center rounded-full bg-primary-strong px-4 text-sm font-bold text-white hover:bg-ink'
                  : 'mt-1 text-sm font-semibold text-primary-strong underline'
              }
              onClick={() => {
                toast.action?.onClick();
                onDismiss();
              }}
            >
              {toast.action.label}
            </button>
          ) : null}
        </div>
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss notification"
          className="rounded-full p-1 text-muted hover:bg-canvas"
        >
          <CloseIcon width={18} height={18} />
        </button>
      </div>
      <div className="h-1 w-full bg-canvas">
        <div className={`fmk-toast-progress h-full ${accent[toast.type]}`} style={{ animationDuration: `${toast.duration}ms` }} />
      </div>
    </div>
  );
}
