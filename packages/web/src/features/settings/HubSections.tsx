import { effectiveTier, type Me, nextPlanFor, type Tier } from '@fmk/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../ui/Button.tsx';
import { useSaveUnits } from './queries.ts';

const TIER_NAMES: Record<Tier, string> = { free: 'Free', premium: 'Premium', platinum: 'Platinum' };

function Box({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2 rounded-2xl border border-line bg-white px-4 py-3">
      <h2 id={id} className="text-sm font-semibold text-ink">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The plan the server says the user has (lifetime beta Premium counts), and the way up from it. */
export function PlanSection({ user }: { user: Me }) {
  const tier = effectiveTier(user);
  const next = nextPlanFor(tier);
  return (
    <Box id="plan-heading" title="Your plan">
      <div className="flex min-h-12 items-center gap-3">
        <div className="flex flex-1 flex-col">
          <span className="text-base font-semibold text-ink">{TIER_NAMES[tier]}</span>
          <span className="text-sm text-muted">
            {user.hasLifetimePremium
              ? 'Premium for life, thanks to joining in the beta'
              : next
                ? `${next} unlocks more`
                : 'Every feature is yours'}
          </span>
        </div>
        <Link to="/settings/premium" className={buttonClass(next ? 'primary' : 'secondary')}>
          {next ? `See ${next}` : 'Compare plans'}
        </Link>
      </div>
    </Box>
  );
}

/** Metric or imperial: heights and distances everywhere in the app follow it (saved as the hub's other settings). */
export function UnitsSection({ user }: { user: Me }) {
  const save = useSaveUnits();
  const units = user.preferences.units;
  return (
    <Box id="units-heading" title="Units">
      <div role="radiogroup" aria-labelledby="units-heading" className="flex gap-2">
        {(
          [
            ['metric', 'Metric', 'km, cm'],
            ['imperial', 'Imperial', 'mi, ft'],
          ] as const
        ).map(([value, label, hint]) => (
          <label
            key={value}
            className="flex min-h-12 flex-1 cursor-pointer items-center gap-2 rounded-xl border border-line px-3 has-[:checked]:border-primary-strong has-[:checked]:bg-primary-soft"
          >
            <input
              type="radio"
              name="units"
              value={value}
              checked={units === value}
              onChange={() => save(value)}
              className="size-5 accent-primary-strong"
            />
            <span className="flex flex-col">
              <span className="text-base text-ink">{label}</span>
              <span className="text-xs text-muted">{hint}</span>
            </span>
          </label>
        ))}
      </div>
    </Box>
  );
}
