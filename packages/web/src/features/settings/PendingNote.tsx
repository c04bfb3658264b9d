import { CloudOffIcon } from '../../ui/icons.tsx';
import { usePendingSettings } from './store.ts';

/** 'Saved on this device, will sync' while a change waits under appSettings (spec section 8). */
export function PendingNote({ className = 'mx-4' }: { className?: string }) {
  const pending = usePendingSettings();
  if (!pending) return null;
  return (
    <p role="status" className={`${className} flex items-center gap-2 rounded-xl bg-primary-soft px-3 py-2 text-sm text-ink`}>
      <CloudOffIcon width={18} height={18} aria-hidden="true" />
      Saved on this device, will sync
    </p>
  );
}
