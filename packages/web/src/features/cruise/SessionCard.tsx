import { CRUISE_SESSION_MS } from '@fmk/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { call } from '../../api/call.ts';
import { errorMessage } from '../../api/client.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { FlameIcon, StarIcon } from '../../ui/icons.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { currentPosition, LocationError } from '../discovery/location.ts';
import { formatCountdown, formatNextStart, remainingMs, useNow } from './countdown.ts';
import { cruiseKeys, refreshPosition, type StatusWithClock, useEndSession, useStartSession } from './queries.ts';

/** How often the position is refreshed during a session (nearby lists positions under 30 min old). */
const POSITION_REFRESH_MS = 5 * 60_000;

/** The session: start (with an optional Right Now), the countdown, end, and the counters. */
export function SessionCard({ status, rightNowEnabled }: { status: StatusWithClock; rightNowEnabled: boolean }) {
  const start = useStartSession();
  const end = useEndSession();
  const qc = useQueryClient();
  const [rightNow, setRightNow] = useState('');
  const rightNowId = useId();
  const live = status.session;
  const now = useNow(Boolean(live));
  const left = live ? remainingMs(live.endsAt, status.serverTime, status.receivedAt, now) : 0;
  const expiredOnce = useRef(false);

  // At zero the session is over on the server too: fetch the counters it added.
  useEffect(() => {
    if (live && left === 0 && !expiredOnce.current) {
      expiredOnce.current = true;
      void qc.invalidateQueries({ queryKey: cruiseKeys.all });
    }
    if (!live) expiredOnce.current = false;
  }, [live, left, qc]);

  useEffect(() => {
    if (!live) return;
    const t = setInterval(() => void refreshPosition(currentPosition).catch(() => undefined), POSITION_REFRESH_MS);
    return () => clearInterval(t);
  }, [live]);

  const startError = start.error
    ? start.error instanceof LocationError
      ? start.error.message
      : errorMessage(start.error, 'Your session could not start. Please try again.')
    : null;
  const used = !live && status.sessionsLeft === 0;
  const periodWord = status.period === 'week' ? 'this week' : 'today';

  return (
    <section aria-labelledby="session-title" className="mx-4 flex flex-col gap-4">
      {live ? (
        <div className="flex flex-col items-center gap-3 rounded-3xl bg-gradient-to-br from-primary to-primary-strong px-5 py-6 text-center text-white shadow-lg">
          <h2 id="session-title" className="flex items-center gap-2 text-base font-semibold">
            <FlameIcon width={18} height={18} /> You're cruising
          </h2>
          <Ring fraction={left / CRUISE_SESSION_MS}>
            <span
              role="timer"
              aria-live="off"
              aria-label={`${formatCountdown(left)} left`}
              className="text-5xl font-bold tabular-nums"
            >
              {formatCountdown(left)}
            </span>
            <span className="text-sm text-white/90">left</span>
          </Ring>
          {live.rightNow ? <p className="max-w-xs text-base font-medium">“{live.rightNow}”</p> : null}
          <p className="max-w-xs text-sm text-white/90">
            Men nearby see you in their list. Your spot on the map is a 500 m area, never your exact position.
          </p>
          <button
            type="button"
            onClick={() => end.mutate()}
            disabled={end.isPending}
            className="mt-1 inline-flex min-h-12 items-center justify-center rounded-full bg-white px-6 text-base font-bold text-primary-strong shadow hover:bg-primary-soft disabled:opacity-60"
          >
            {end.isPending ? 'Ending…' : 'End session'}
          </button>
          {end.error ? (
            <p role="alert" className="text-sm font-semibold">
              {errorMessage(end.error, 'Your session could not end. Please try again.')}
            </p>
          ) : null}
        </div>
      ) : used ? (
        <div className="flex flex-col items-center gap-3 rounded-3xl border border-line bg-white px-5 py-6 text-center">
          <span className="flex size-14 items-center justify-center rounded-full bg-amber-100 text-amber-700">
            <StarIcon width={28} height={28} fill="currentColor" />
          </span>
          <h2 id="session-title" className="text-lg font-bold text-ink">
            You've cruised {periodWord}
          </h2>
          <p className="max-w-xs text-base text-muted">{status.upsell}</p>
          {status.nextStartAt ? (
            <p className="text-sm font-semibold text-ink">Next session {formatNextStart(status.nextStartAt)}</p>
          ) : null}
          <ButtonLink to="/settings/premium" block>
            See plans
          </ButtonLink>
        </div>
      ) : (
        <div className="flex flex-col gap-4 rounded-3xl border border-line bg-white px-5 py-5">
          <div className="flex items-start gap-3">
            <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-primary-soft text-primary-strong">
              <FlameIcon width={24} height={24} />
            </span>
            <div className="min-w-0">
              <h2 id="session-title" className="text-lg font-bold text-ink">
                Ready to cruise?
              </h2>
              <p className="text-sm text-muted">
                For 30 minutes, men nearby see you're up for it, with your now profile. Others see only your 500 m area.
              </p>
            </div>
          </div>
          {rightNowEnabled ? (
            <div className="flex flex-col gap-1.5">
              <label htmlFor={rightNowId} className="text-sm font-semibold text-ink">
                Right now I'm up for… <span className="font-normal text-muted">(optional)</span>
              </label>
              <input
                id={rightNowId}
                value={rightNow}
                maxLength={140}
                onChange={(e) => setRightNow(e.target.value)}
                placeholder="A drink, a walk, more…"
                className="block w-full rounded-xl border border-line bg-white px-4 py-3 text-base text-ink placeholder:text-muted focus:border-primary-strong"
              />
            </div>
          ) : null}
          <Button block loading={start.isPending} onClick={() => start.mutate(rightNow.trim() || undefined)}>
            Start cruising
          </Button>
          {startError ? (
            <p role="alert" className="text-center text-sm font-medium text-primary-strong">
              {startError}
            </p>
          ) : null}
        </div>
      )}
      <PrecisionSwitch status={status} />
      <Counters status={status} />
    </section>
  );
}

/** What others see of my position while I cruise (user settings: location precision). */
function PrecisionSwitch({ status }: { status: StatusWithClock }) {
  const qc = useQueryClient();
  const set = useMutation({
    mutationFn: (exact: boolean) =>
      call('PUT /cruise/precision', { body: { locationPrecision: exact ? 'exact' : 'approximate' } }),
    onSuccess: (s) => {
      qc.setQueryData(cruiseKeys.status(), { ...s, receivedAt: Date.now() });
    },
  });
  const exact = set.isPending ? set.variables : status.locationPrecision === 'exact';
  return (
    <div className="rounded-2xl bg-white px-4 py-1 ring-1 ring-line">
      <Switch
        label="Show my area on the map"
        hint={
          exact ? 'Others see your 500 m area, never your exact position.' : 'Others see you in the list with a distance only.'
        }
        checked={exact}
        disabled={set.isPending}
        onChange={(on) => set.mutate(on)}
      />
    </div>
  );
}

function Ring({ fraction, children }: { fraction: number; children: React.ReactNode }) {
  const r = 72;
  const c = 2 * Math.PI * r;
  return (
    <div className="relative flex size-48 items-center justify-center">
      <svg viewBox="0 0 160 160" className="absolute inset-0 size-full -rotate-90" aria-hidden="true">
        <circle cx="80" cy="80" r={r} fill="none" stroke="currentColor" strokeOpacity="0.25" strokeWidth="6" />
        <circle
          cx="80"
          cy="80"
          r={r}
          fill="none"
          stroke="currentColor"
          strokeWidth="6"
          strokeLinecap="round"
          strokeDasharray={c}
          strokeDashoffset={c * (1 - Math.max(0, Math.min(1, fraction)))}
          className="transition-[stroke-dashoffset] duration-1000 ease-linear"
        />
      </svg>
      <div className="relative flex flex-col items-center">{children}</div>
    </div>
  );
}

/** The counters (spec section 4): sessions and minutes this period, and all time. */
function Counters({ status }: { status: StatusWithClock }) {
  const period = status.period === 'week' ? 'This week' : 'Today';
  const left =
    status.sessionsLeft === -1 ? 'Unlimited' : `${status.sessionsLeft} session${status.sessionsLeft === 1 ? '' : 's'} left`;
  return (
    <div className="flex flex-col gap-1.5">
      <dl aria-label="Your cruise counters" className="grid grid-cols-3 gap-2 text-center">
        <Stat label={`${period}: sessions`} value={String(status.sessionsThisPeriod)} caption={period} unit="sessions" />
        <Stat label={`${period}: minutes`} value={String(status.minutesThisPeriod)} caption={period} unit="minutes" />
        <Stat
          label="All time: sessions"
          value={String(status.totalSessions)}
          caption="All time"
          unit={`${status.totalMinutes} min`}
        />
      </dl>
      <p className="text-center text-xs text-muted">
        {left} {status.period === 'week' ? 'this week' : 'today'}
      </p>
    </div>
  );
}

function Stat({ label, value, caption, unit }: { label: string; value: string; caption: string; unit: string }) {
  return (
    <div className="flex flex-col rounded-2xl bg-white px-2 py-3 shadow-sm ring-1 ring-line">
      <dt className="sr-only">{label}</dt>
      <dd className="flex flex-col">
        <span className="text-2xl font-bold text-ink tabular-nums">{value}</span>
        <span className="text-xs text-muted">
          <span aria-hidden="true">{caption} · </span>
          {unit}
        </span>
      </dd>
    </div>
  );
}
