import { DISPLAY_DEFAULTS, type EventSummary, type Spot } from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { Button } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { CHECK_CONNECTION, LoadError } from '../../ui/ErrorState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { CalendarIcon, PlusIcon } from '../../ui/icons.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { SelectField, TextArea, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { currentPosition, LocationError } from '../discovery/location.ts';
import { ShareLocationAction } from './NearbyPanel.tsx';
import { useComment, useCreateEvent, useEvent, useEventAction, useEvents } from './queries.ts';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const time = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/** Group events near me: the list, the detail (attend, comment, cancel) and the form to create one. */
export function EventsPanel({ spots }: { spots: readonly Spot[] }) {
  const events = useEvents();
  const [open, setOpen] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  let body: React.ReactNode;
  if (events.isPending) {
    body = (
      <div className="flex justify-center py-12">
        <Spinner label="Loading events" />
      </div>
    );
  } else if (events.isError) {
    body = (
      <LoadError
        title="Couldn't load events"
        body={errorMessage(events.error, CHECK_CONNECTION)}
        onRetry={() => events.refetch()}
        variant="secondary"
      />
    );
  } else if (events.data.items.length === 0) {
    body = (
      <EmptyState
        icon={<CalendarIcon />}
        title="No events near you"
        body={
          events.data.hasLocation
            ? 'Plan one at a spot or a place: men within 25 km will see it.'
            : 'Share your location to see events near you.'
        }
        action={events.data.hasLocation ? undefined : <ShareLocationAction />}
      />
    );
  } else {
    body = (
      <ul aria-label="Events near you" className="flex flex-col gap-2">
        {events.data.items.map((e) => (
          <li key={e.id}>
            <EventCard event={e} onOpen={() => setOpen(e.id)} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="flex flex-col gap-3 px-4">
      <Button variant="secondary" onClick={() => setCreating(true)}>
        <PlusIcon width={18} height={18} /> Create an event
      </Button>
      {body}
      <EventSheet id={open} onClose={() => setOpen(null)} />
      <CreateEventSheet open={creating} spots={spots} onClose={() => setCreating(false)} onCreated={(id) => setOpen(id)} />
    </div>
  );
}

function EventCard({ event: e, onOpen }: { event: EventSummary; onOpen: () => void }) {
  const d = new Date(e.startsAt);
  return (
    <button
      type="button"
      onClick={onOpen}
      className="flex w-full items-center gap-3 rounded-2xl bg-white p-3 text-left shadow-sm ring-1 ring-line hover:ring-primary/40"
    >
      <span className="flex size-14 shrink-0 flex-col items-center justify-center rounded-xl bg-primary-soft text-primary-strong">
        <span className="text-xs font-bold uppercase">{d.toLocaleDateString(undefined, { month: 'short' })}</span>
        <span className="text-xl leading-none font-bold">{d.getDate()}</span>
      </span>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="truncate text-base font-bold text-ink">{e.title}</span>
        <span className="truncate text-sm text-muted">
          {time(e.startsAt)} · {e.placeName}
          {e.distance ? ` · ${e.distance}` : ''}
        </span>
        <span className="text-xs text-muted">
          {e.status === 'cancelled' ? (
            <span className="font-semibold text-primary-strong">Cancelled</span>
          ) : (
            <>
              {e.attendees} going{e.attending ? ' · including you' : ''}
            </>
          )}
        </span>
      </span>
    </button>
  );
}

function EventSheet({ id, onClose }: { id: string | null; onClose: () => void }) {
  const event = useEvent(id);
  const action = useEventAction(id ?? '');
  const comment = useComment(id ?? '');
  const [text, setText] = useState('');
  const e = event.data;
  const closed = e ? e.status === 'cancelled' || new Date(e.endsAt).getTime() <= Date.now() : true;

  return (
    <Sheet open={id !== null} onClose={onClose} title={e?.title ?? 'Event'}>
      {event.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner label="Loading the event" />
        </div>
      ) : event.isError || !e ? (
        <p role="alert" className="py-6 text-center text-base text-muted">
          {errorMessage(event.error, 'This event could not be loaded.')}
        </p>
      ) : (
        <div className="flex flex-col gap-4 pb-2">
          <div className="flex flex-col gap-1">
            {e.status === 'cancelled' ? (
              <span className="w-fit rounded-full bg-primary-soft px-2.5 py-0.5 text-xs font-bold text-primary-strong">
                Cancelled
              </span>
            ) : null}
            <p className="text-base font-semibold text-ink">
              {day(e.startsAt)}, {time(e.startsAt)}–{time(e.endsAt)}
            </p>
            <p className="text-sm text-muted">
              {e.placeName}
              {e.distance ? ` · ${e.distance} away` : ''}
            </p>
            <p className="text-sm text-muted">
              Hosted by {e.mine ? 'you' : e.creator.displayName || DISPLAY_DEFAULTS.name} · {e.attendees} going
            </p>
          </div>
          {e.description ? <p className="text-base whitespace-pre-line text-ink">{e.description}</p> : null}
          {!closed ? (
            e.mine ? (
              <Button variant="danger" loading={action.isPending} onClick={() => action.mutate('cancel')}>
                Cancel event
              </Button>
            ) : e.attending ? (
              <Button variant="secondary" loading={action.isPending} onClick={() => action.mutate('leave')}>
                Leave event
              </Button>
            ) : (
              <Button loading={action.isPending} onClick={() => action.mutate('attend')}>
                I'm going
              </Button>
            )
          ) : null}
          <FormError>{action.error ? errorMessage(action.error, 'That did not work. Please try again.') : null}</FormError>
          <section aria-labelledby="comments-title" className="flex flex-col gap-2 border-t border-line pt-3">
            <h3 id="comments-title" className="text-base font-bold text-ink">
              Comments
            </h3>
            {e.comments.length === 0 ? <p className="text-sm text-muted">No comments yet.</p> : null}
            <ul className="flex flex-col gap-2">
              {e.comments.map((c) => {
                const name = c.author.displayName?.trim() || DISPLAY_DEFAULTS.name;
                return (
                  <li key={c.id} className="flex gap-2">
                    <Avatar person={c.author} name={name} size={32} className="shrink-0" />
                    <div className="min-w-0 rounded-2xl bg-canvas px-3 py-2">
                      <p className="text-xs font-bold text-ink">{name}</p>
                      <p className="text-sm break-words text-ink">{c.body}</p>
                    </div>
                  </li>
                );
              })}
            </ul>
            {!closed ? (
              <form
                className="flex items-end gap-2"
                onSubmit={(ev) => {
                  ev.preventDefault();
                  if (!text.trim()) return;
                  comment.mutate(text.trim(), { onSuccess: () => setText('') });
                }}
              >
                <div className="flex-1">
                  <TextField label="Add a comment" value={text} onChange={(ev) => setText(ev.target.value)} maxLength={500} />
                </div>
                <Button type="submit" variant="secondary" loading={comment.isPending} disabled={!text.trim()}>
                  Post
                </Button>
              </form>
            ) : null}
            <FormError>{comment.error ? errorMessage(comment.error, 'Your comment was not posted.') : null}</FormError>
          </section>
        </div>
      )}
    </Sheet>
  );
}

/** datetime-local wants local time without a zone: "2026-06-01T20:00". */
function localInputValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function CreateEventSheet({
  open,
  spots,
  onClose,
  onCreated,
}: {
  open: boolean;
  spots: readonly Spot[];
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const create = useCreateEvent();
  const toast = useToast();
  const approved = spots.filter((s) => s.status === 'approved');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [where, setWhere] = useState<string>('here');
  const [placeName, setPlaceName] = useState('');
  const [startsAt, setStartsAt] = useState(() => localInputValue(new Date(Date.now() + 2 * 3_600_000)));
  const [duration, setDuration] = useState('120');
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [locating, setLocating] = useState(false);

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setError(null);
    setFields({});
    const start = new Date(startsAt);
    if (Number.isNaN(start.getTime())) {
      setFields({ startsAt: 'Choose a date and time.' });
      return;
    }
    let place: { name: string; lat: number; lng: number } | undefined;
    if (where === 'here') {
      setLocating(true);
      try {
        place = { name: placeName, ...(await currentPosition()) };
      } catch (err) {
        setLocating(false);
        setError(err instanceof LocationError ? err.message : 'We could not find your position.');
        return;
      } finally {
        setLocating(false);
      }
    }
    create.mutate(
      {
        title,
        description,
        ...(place ? { place } : { spotId: where }),
        startsAt: start.toISOString(),
        durationMinutes: Number(duration),
      },
      {
        onSuccess: (e) => {
          toast.success('Event created', 'Men nearby can see it and join.');
          setTitle('');
          setDescription('');
          setPlaceName('');
          onClose();
          onCreated(e.id);
        },
        onError: (err) => {
          setError(errorMessage(err, 'Your event was not created. Please try again.'));
          if (err instanceof ApiError) setFields(err.fields);
        },
      },
    );
  };

  return (
    <Sheet open={open} onClose={onClose} title="Create an event">
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4 pb-2" noValidate>
        <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={80} error={fields.title} />
        <SelectField label="Where" value={where} onChange={(e) => setWhere(e.target.value)} error={fields.spotId}>
          <option value="here">A place around here</option>
          {approved.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </SelectField>
        {where === 'here' ? (
          <TextField
            label="Place name"
            hint="Shown with a 500 m area around where you are now."
            value={placeName}
            onChange={(e) => setPlaceName(e.target.value)}
            maxLength={80}
            error={fields['place.name'] ?? fields.place}
          />
        ) : null}
        <TextField
          label="Starts"
          type="datetime-local"
          value={startsAt}
          onChange={(e) => setStartsAt(e.target.value)}
          error={fields.startsAt}
        />
        <SelectField label="Lasts" value={duration} onChange={(e) => setDuration(e.target.value)}>
          <option value="60">1 hour</option>
          <option value="120">2 hours</option>
          <option value="180">3 hours</option>
          <option value="360">6 hours</option>
        </SelectField>
        <TextArea
          label="Description"
          hint="Optional."
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          maxLength={1000}
        />
        <FormError>{error}</FormError>
        <Button
          type="submit"
          block
          loading={locating || create.isPending}
          disabled={!title.trim() || (where === 'here' && !placeName.trim())}
        >
          Create event
        </Button>
      </form>
    </Sheet>
  );
}
