import type { ProfileMode } from '@fmk/core';
import { FlameIcon, HeartIcon } from '../../ui/icons.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { useSwitchModeMutation } from './queries.ts';

const OPTIONS: { mode: ProfileMode; label: string; icon: React.ReactNode }[] = [
  { mode: 'dating', label: 'Dating', icon: <HeartIcon width={18} height={18} /> },
  { mode: 'now', label: 'Hookup', icon: <FlameIcon width={18} height={18} /> },
];

/** The profile-mode switch in the app header (spec section 1): Dating (heart) or Hookup (fire). */
export function ModeSwitch({ onSwitchStart }: { onSwitchStart?: () => void }) {
  const { user } = useAuth();
  const switchMode = useSwitchModeMutation({ onStart: onSwitchStart });
  const current = switchMode.isPending ? switchMode.variables : user?.currentMode;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a two-button segmented control, not a form fieldset
    <div role="group" aria-label="Profile mode" className="flex rounded-full bg-canvas p-1">
      {OPTIONS.map((o) => {
        const on = current === o.mode;
        return (
          <button
            key={o.mode}
            type="button"
            aria-pressed={on}
            disabled={switchMode.isPending}
            onClick={() => {
              if (!on) switchMode.mutate(o.mode);
            }}
            className={`inline-flex min-h-9 items-center gap-1.5 rounded-full px-3 text-sm font-semibold transition-colors ${
              on ? 'bg-white text-primary-strong shadow-sm' : 'text-muted hover:text-ink'
            }`}
          >
            {o.icon}
            {o.label}
          </button>
        );
      })}
    </div>
  );
}
