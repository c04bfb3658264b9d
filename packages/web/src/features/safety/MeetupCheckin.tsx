import { CHECKIN_MAX_AHEAD_MS, type MeetupCheckin as Checkin } from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { MapPinIcon } from '../../ui/icons.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { SelectField, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useMatchesQuery } from '../game/queries.ts';
import { useCheckinsQuery, useCloseCheckin, useSafetyContactQuery, useStartCheckin } from './meetupQueries.ts';
import { useSettingsQuery } from './queries.ts';

const when = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
const QUARTER = 15 * 60_000;
const DEFAULT_CHECK_IN_AFTER = 2 * 60 * 60_000;
const OTHER = '__other';

/** A Date as the value of a datetime-local field (local time, to the minute). */
function localValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Who, where, when and the time to check in by; the server checks the times and the contact. */
function StartCheckinSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const matches = useMatchesQuery();
  const start = useStartCheckin();
  const toast = useToast();
  const [first] = useState(() => new Date(Math.ceil(Date.now() / QUARTER) * QUARTER));
  const [who, setWho] = useState('');
  const [otherName, setOtherName] = useState('');
  const [place, setPlace] = useState('');
  const [startsAt, setStartsAt] = useState(() => localValue(first));
  const [checkInBy, setCheckInBy] = useState(() => localValue(new Date(first.getTime() + DEFAULT_CHECK_IN_AFTER)));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const names = (matches.data ?? []).map((m) => m.other.displayName?.trim()).filter((n): n is string => !!n);
  const picking = names.length > 0 && who !== OTHER;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    setError(null);
    const meetingWho = picking ? who : otherName;
    const starts = new Date(startsAt);
    const due = new Date(checkInBy);
    if (Number.isNaN(starts.getTime()) || Number.isNaN(due.getTime())) {
      setErrors({ checkInBy: 'Give the meetup and check-in times.' });
      return;
    }
    start.mutate(
      { meetingWho, place, startsAt: starts.toISOString(), checkInBy: due.toISOString() },
      {
        onSuccess: (c) => {
          onClose();
          toast.success('Check-in started', `Check in by ${when.format(new Date(c.checkInBy))}.`);
        },
        onError: (err) => {
          const fields = err instanceof ApiError ? err.fields : {};
          if (fields.meetingWho || fields.place || fields.startsAt) setErrors(fields);
          else if (fields.checkInBy) setErrors({ checkInBy: err.message });
          else setError(errorMessage(err, 'Could not start the check-in. Please try again.'));
        },
      },
    );
  };

  return (
    <Sheet open={open} onClose={onClose} title="Start a check-in">
      <form className="flex flex-col gap-4 pb-2" onSubmit={onSubmit} noValidate aria-label="Start a check-in">
        <p className="text-sm text-muted">
          If you don't tap "I'm safe" by the time you set, we email your trusted contact who you met, where and when.
        </p>
        {names.length > 0 ? (
          <SelectField
            label="Who are you meeting?"
            value={who}
            onChange={(e) => setWho(e.target.value)}
            error={picking ? (errors.meetingWho ?? null) : null}
          >
            <option value="">Choose a match…</option>
            {names.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
            <option value={OTHER}>Someone else</option>
          </SelectField>
        ) : null}
        {picking ? null : (
          <TextField
            label={names.length ? 'His name' : 'Who are you meeting?'}
            value={otherName}
            maxLength={80}
            autoComplete="off"
            onChange={(e) => setOtherName(e.target.value)}
            error={errors.meetingWho ?? null}
          />
        )}
        <TextField
          label="Where?"
          value={place}
          maxLength={160}
          autoComplete="off"
          onChange={(e) => setPlace(e.target.value)}
          error={errors.place ?? null}
        />
        <TextField
          label="When do you meet?"
          type="datetime-local"
          value={startsAt}
          onChange={(e) => setStartsAt(e.target.value)}
          error={errors.startsAt ?? null}
        />
        <TextField
          label="Check in by"
          type="datetime-local"
          value={checkInBy}
          max={localValue(new Date(Date.now() + CHECKIN_MAX_AHEAD_MS))}
          hint="After the meetup starts, within 24 hours"
          onChange={(e) => setCheckInBy(e.target.value)}
          error={errors.checkInBy ?? null}
        />
        <FormError>{error}</FormError>
        <Button type="submit" block loading={start.isPending}>
          Start check-in
        </Button>
        <Button variant="secondary" block onClick={onClose}>
          Cancel
        </Button>
      </form>
    </Sheet>
  );
}

/** The open check-in: "I'm safe" closes it, Cancel calls it off; overdue, the contact has been told. */
function OpenCheckin({ checkin }: { checkin: Checkin }) {
  const close = useCloseCheckin();
  const toast = useToast();
  const overdue = checkin.status === 'overdue';
  const act = (how: 'done' | 'cancel') =>
    close.mutate(
      { id: checkin.id, how },
      {
        onSuccess: () => toast.success(how === 'done' ? 'Glad you are safe' : 'Check-in cancelled'),
        onError: (e) => toast.error("Couldn't update the check-in", errorMessage(e, 'Check your connection and try again.')),
      },
    );
  return (
    <div className={`flex flex-col gap-2 rounded-xl p-3 ${overdue ? 'bg-primary-soft' : 'bg-canvas'}`}>
      <p className="text-base font-semibold text-ink">
        {overdue ? 'You missed your check-in' : 'Check-in active'}: {checkin.meetingWho}
      </p>
      <p className="flex items-center gap-1 text-sm text-ink">
        <MapPinIcon width={16} height={16} aria-hidden="true" /> {checkin.place}, {when.format(new Date(checkin.startsAt))}
      </p>
      <p className="text-sm text-ink">
        {overdue
          ? 'We emailed your trusted contact the details. Let them know you are OK.'
          : `Check in by ${when.format(new Date(checkin.checkInBy))}.`}
      </p>
      {overdue ? null : (
        <div className="flex gap-2">
          <Button className="flex-1" loading={close.isPending && close.variables?.how === 'done'} onClick={() => act('done')}>
            I'm safe
          </Button>
          <Button variant="secondary" disabled={close.isPending} onClick={() => act('cancel')}>
            Cancel
          </Button>
        </div>
      )}
    </div>
  );
}

/** The Safety centre's meetup check-in: start one, or the one running (and a missed one). */
export function MeetupCheckinCard() {
  const checkins = useCheckinsQuery();
  const contact = useSafetyContactQuery();
  const settings = useSettingsQuery();
  const [starting, setStarting] = useState(false);
  // A missed one stays in sight for a day after its time, then it is history.
  const open = (checkins.data ?? []).filter(
    (c) =>
      c.status === 'active' || (c.status === 'overdue' && Date.now() - new Date(c.checkInBy).getTime() < CHECKIN_MAX_AHEAD_MS),
  );
  const active = open.some((c) => c.status === 'active');
  const meetup = settings.data?.safety.meetupSafety;
  const ready = contact.data && meetup && (meetup.emergencyContactEnabled || meetup.friendNotificationEnabled);
  return (
    <section
      aria-labelledby="checkin-title"
      className="mx-4 mb-4 flex flex-col gap-3 rounded-2xl border border-line bg-white p-4"
    >
      <h2 id="checkin-title" className="text-base font-bold text-ink">
        Meetup check-in
      </h2>
      {open.length ? (
        open.map((c) => <OpenCheckin key={c.id} checkin={c} />)
      ) : (
        <p className="text-sm text-muted">Meeting someone? Tell a trusted friend, and check in when you're safe.</p>
      )}
      {contact.isSuccess && settings.isSuccess && !ready ? (
        <p className="text-sm text-ink">
          First add a trusted contact and turn on a meetup email in{' '}
          <Link to="/settings/safety" className="font-semibold text-primary-strong underline">
            Safety settings
          </Link>
          .
        </p>
      ) : null}
      {active ? null : (
        <Button variant="secondary" block onClick={() => setStarting(true)}>
          Start a check-in
        </Button>
      )}
      {starting ? <StartCheckinSheet open onClose={() => setStarting(false)} /> : null}
    </section>
  );
}
