import { DISPLAY_DEFAULTS } from '@fmk/core';
import { errorMessage } from '../../api/client.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { LoadError } from '../../ui/ErrorState.tsx';
import { BlockIcon } from '../../ui/icons.tsx';
import { Page } from '../../ui/Page.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useBlockedQuery, useUnblockMutation } from './queries.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** /settings/blocked-users: who I blocked, and Unblock. */
export function BlockedUsersScreen() {
  const blocked = useBlockedQuery();
  const unblock = useUnblockMutation();
  const toast = useToast();
  return (
    <Page title="Blocked users" back="/settings">
      {blocked.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner />
        </div>
      ) : blocked.isError ? (
        <LoadError title="We couldn't load your blocked list" onRetry={() => blocked.refetch()} />
      ) : blocked.data.length === 0 ? (
        <EmptyState
          icon={<BlockIcon />}
          title="You haven't blocked anyone"
          body="People you block will be listed here, and you can unblock them."
        />
      ) : (
        <ul aria-label="Blocked users" className="divide-y divide-line px-4">
          {blocked.data.map((u) => {
            const name = u.displayName?.trim() || DISPLAY_DEFAULTS.name;
            return (
              <li key={u.uid} className="flex items-center gap-3 py-3">
                <Avatar person={u} name={name} size={48} loading="lazy" />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-base font-semibold text-ink">{name}</p>
                  <p className="text-sm text-muted">Blocked {dateFormat.format(new Date(u.blockedAt))}</p>
                </div>
                <button
                  type="button"
                  aria-label={`Unblock ${name}`}
                  disabled={unblock.isPending && unblock.variables === u.uid}
                  onClick={() =>
                    unblock.mutate(u.uid, {
                      onSuccess: () => toast.success('Unblocked', `${name} can see you again.`),
                      onError: (e) => toast.error("Couldn't unblock him", errorMessage(e, 'Try again.')),
                    })
                  }
                  className="min-h-10 rounded-full border border-line bg-white px-4 text-sm font-semibold text-ink hover:bg-canvas disabled:opacity-50"
                >
                  Unblock
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </Page>
  );
}
