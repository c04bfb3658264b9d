import { errorMessage } from '../../api/client.ts';
import { LoadError } from '../../ui/ErrorState.tsx';
import { Pill } from '../../ui/Section.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { lastActive, useSessions, useSignOutOthers, useSignOutSession } from './sessions.ts';

const rowButton =
  'min-h-11 shrink-0 rounded-full border border-line px-4 text-sm font-semibold text-primary-strong hover:bg-canvas disabled:opacity-50';

/**
 * "Where you're signed in": every device with a live session, this one first, each other one
 * with 'Sign out', and 'Sign out everywhere else' for a lost phone or a shared computer.
 */
export function SessionsSection() {
  const sessions = useSessions();
  const one = useSignOutSession();
  const others = useSignOutOthers();
  const list = sessions.data?.sessions ?? [];
  const otherCount = list.filter((s) => !s.current).length;
  return (
    <section aria-labelledby="sessions-heading" className="flex flex-col rounded-2xl border border-line bg-white px-4 py-3">
      <h2 id="sessions-heading" className="text-sm font-semibold text-ink">
        Where you're signed in
      </h2>
      {sessions.isPending ? (
        <div className="flex justify-center py-4">
          <Spinner label="Loading your devices" size={24} />
        </div>
      ) : sessions.isError ? (
        <LoadError
          title="Couldn't load your devices"
          onRetry={() => sessions.refetch()}
          retrying={sessions.isFetching}
          variant="secondary"
        />
      ) : (
        <ul className="flex flex-col">
          {list.map((s) => (
            <li key={s.id} className="flex min-h-14 items-center gap-3 border-b border-line py-2 last:border-b-0">
              <div className="flex min-w-0 flex-1 flex-col">
                <span className="text-base text-ink">{s.device}</span>
                <span className="text-sm text-muted">{s.current ? 'Active now' : lastActive(s.lastUsedAt)}</span>
              </div>
              {s.current ? (
                <Pill tone="good">This device</Pill>
              ) : (
                <button
                  type="button"
                  className={rowButton}
                  disabled={one.isPending && one.variables === s.id}
                  onClick={() => one.mutate(s.id)}
                  aria-label={`Sign out ${s.device}`}
                >
                  Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {one.isError ? (
        <p role="alert" className="text-sm font-semibold text-ink">
          {errorMessage(one.error, 'Could not sign that device out. Please try again.')}
        </p>
      ) : null}
      {otherCount > 0 ? (
        <button
          type="button"
          className={`${rowButton} mt-2 self-start`}
          disabled={others.isPending}
          onClick={() => others.mutate()}
        >
          {others.isPending ? 'Signing out...' : 'Sign out everywhere else'}
        </button>
      ) : null}
      {others.isSuccess ? (
        <p role="status" className="pt-2 text-sm text-muted">
          {others.data.signedOut === 1
            ? 'Signed out of 1 other device.'
            : `Signed out of ${others.data.signedOut} other devices.`}
        </p>
      ) : null}
      {others.isError ? (
        <p role="alert" className="text-sm font-semibold text-ink">
          {errorMessage(others.error, 'Could not sign the other devices out. Please try again.')}
        </p>
      ) : null}
    </section>
  );
}
