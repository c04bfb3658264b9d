import { type Alert, type Settings, safetyScore } from '@fmk/core';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { CheckIcon, ChevronRightIcon } from '../../ui/icons.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useTurnOnSafetySetting } from './queries.ts';

/** The score's colour band: AA contrast on white for the number and the bar. */
function band(score: number): { word: string; text: string; bar: string } {
  if (score >= 80) return { word: 'Strong', text: 'text-emerald-800', bar: 'bg-emerald-600' };
  if (score >= 50) return { word: 'Fair', text: 'text-amber-900', bar: 'bg-amber-500' };
  return { word: 'Weak', text: 'text-primary-strong', bar: 'bg-primary-strong' };
}

/**
 * The safety score (spec section 9, computed by core's safetyScore from his settings and his
 * alerts), with each setting that would raise it and a one-tap fix, and the important alerts
 * that lower it.
 */
export function SafetyScoreCard({ settings, alerts }: { settings: Settings; alerts: Alert[] }) {
  const s = safetyScore(settings.safety, alerts);
  const turnOn = useTurnOnSafetySetting();
  const toast = useToast();
  const b = band(s.score);
  const missing = s.items.filter((i) => !i.on);
  return (
    <section aria-labelledby="safety-score-title" className="mx-4 mb-4 rounded-2xl border border-line bg-white p-4">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="safety-score-title" className="text-base font-bold text-ink">
          Your safety score
        </h2>
        <p className={`text-sm font-semibold ${b.text}`}>{b.word}</p>
      </div>
      <p className="mt-1 flex items-baseline gap-1">
        <span data-testid="safety-score" className={`text-4xl font-bold ${b.text}`}>
          {s.score}
        </span>
        <span className="text-base text-muted">/ 100</span>
      </p>
      <div aria-hidden="true" className="mt-2 h-2 overflow-hidden rounded-full bg-canvas">
        <div className={`h-full rounded-full ${b.bar}`} style={{ width: `${s.score}%` }} />
      </div>
      {s.unresolvedHigh > 0 ? (
        <p className="mt-3 text-sm text-ink">
          {s.unresolvedHigh === 1 ? 'An important alert' : `${s.unresolvedHigh} important alerts`} below{' '}
          {s.unresolvedHigh === 1 ? 'lowers' : 'lower'} your score until you resolve or dismiss{' '}
          {s.unresolvedHigh === 1 ? 'it' : 'them'}.
        </p>
      ) : null}
      <ul aria-label="What raises your score" className="mt-3 flex flex-col divide-y divide-line">
        {s.items.map((item) => (
          <li key={`${item.group}.${item.key}`} className="flex min-h-14 items-center gap-3 py-2">
            <div className="min-w-0 flex-1">
              <p className="text-base font-semibold text-ink">{item.label}</p>
              <p className="text-sm text-muted">{item.benefit}</p>
            </div>
            {item.on ? (
              <span className="flex items-center gap-1 text-sm font-semibold text-emerald-800">
                <CheckIcon width={16} height={16} aria-hidden="true" /> On
              </span>
            ) : (
              <button
                type="button"
                disabled={turnOn.isPending}
                aria-label={`Turn on ${item.label} (+${item.points})`}
                onClick={() =>
                  turnOn.mutate(item, {
                    onError: (e) =>
                      toast.error("Couldn't change the setting", errorMessage(e, 'Check your connection and try again.')),
                  })
                }
                className="min-h-10 shrink-0 rounded-full bg-primary-strong px-4 text-sm font-bold text-white hover:bg-ink disabled:opacity-50"
              >
                Turn on +{item.points}
              </button>
            )}
          </li>
        ))}
      </ul>
      {missing.length === 0 && s.unresolvedHigh === 0 ? (
        <p className="mt-2 text-sm text-muted">Every protection that counts is on.</p>
      ) : null}
      <Link
        to="/settings/safety"
        className="mt-3 flex min-h-12 items-center justify-between rounded-xl border border-line px-3 text-base font-semibold text-ink hover:bg-canvas"
      >
        All safety settings
        <ChevronRightIcon width={20} height={20} aria-hidden="true" />
      </Link>
    </section>
  );
}
