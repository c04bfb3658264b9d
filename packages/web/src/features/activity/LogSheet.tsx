import type { ActivityLog, Contact } from '@fmk/core';
import { errorMessage } from '../../api/client.ts';
import { Button, ButtonLink } from '../../ui/Button.tsx';
import { EditIcon } from '../../ui/icons.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { formatDay } from '../health/format.ts';
import { ContactAvatar, formatDuration, ProtectionPill, partnerNames, Stars } from './parts.tsx';
import { useDeleteActivityLogMutation } from './queries.ts';

export function LogSheet({
  log,
  names,
  contacts,
  today,
  onClose,
}: {
  log: ActivityLog | null;
  names: ReadonlyMap<string, string>;
  contacts: ReadonlyMap<string, Contact>;
  today: string;
  onClose: () => void;
}) {
  const del = useDeleteActivityLogMutation();
  const toast = useToast();
  return (
    <Sheet open={log !== null} onClose={onClose} title={log ? formatDay(log.date, today) : 'Activity'}>
      {log ? (
        <div className="flex flex-col gap-4 pb-2">
          {log.partners.some((p) => contacts.has(p)) ? (
            <ul className="flex flex-wrap gap-3" aria-label="Partners">
              {log.partners
                .flatMap((p) => contacts.get(p) ?? [])
                .map((c) => (
                  <li key={c.id} className="flex items-center gap-2 text-sm font-semibold text-ink">
                    <ContactAvatar contact={c} size={36} />
                    {c.name}
                  </li>
                ))}
            </ul>
          ) : null}
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="font-semibold text-muted">With</dt>
            <dd className="text-ink">{log.partners.length ? partnerNames(log, names) : '—'}</dd>
            <dt className="font-semibold text-muted">Where</dt>
            <dd className="text-ink">{log.location ?? '—'}</dd>
            <dt className="font-semibold text-muted">What</dt>
            <dd className="text-ink">{log.activities.length ? log.activities.join(', ') : '—'}</dd>
            <dt className="font-semibold text-muted">Protection</dt>
            <dd>
              <ProtectionPill protection={log.protection} />
            </dd>
            <dt className="font-semibold text-muted">Rating</dt>
            <dd>{log.rating ? <Stars rating={log.rating} /> : '—'}</dd>
            <dt className="font-semibold text-muted">Duration</dt>
            <dd className="text-ink">{log.duration ? formatDuration(log.duration) : '—'}</dd>
          </dl>
          {log.notes ? <p className="rounded-2xl bg-canvas p-3 text-sm whitespace-pre-wrap text-ink">{log.notes}</p> : null}
          <ButtonLink to={`/activity/log?edit=${encodeURIComponent(log.id)}`} variant="secondary" block>
            <EditIcon width={18} height={18} /> Edit entry
          </ButtonLink>
          <Button
            variant="danger"
            block
            loading={del.isPending}
            onClick={() =>
              del.mutate(log.id, {
                onSuccess: () => {
                  toast.success('Entry deleted');
                  onClose();
                },
                onError: (e) => toast.error(errorMessage(e, 'We could not delete this entry. Please try again.')),
              })
            }
          >
            Delete entry
          </Button>
        </div>
      ) : null}
    </Sheet>
  );
}
