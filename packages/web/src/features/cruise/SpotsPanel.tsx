import { CHECKIN_MIN_VISIBLE, SPOT_KINDS, type SpotKind } from '@fmk/core';
import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { CHECK_CONNECTION, LoadError } from '../../ui/ErrorState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { MapPinIcon, PlusIcon } from '../../ui/icons.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { SelectField, TextArea, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { currentPosition, LocationError } from '../discovery/location.ts';
import { ShareLocationAction } from './NearbyPanel.tsx';
import { useCheckIn, useProposeSpot, type useSpots } from './queries.ts';

export const KIND_LABELS: Record<SpotKind, string> = {
  park: 'Park',
  beach: 'Beach',
  sauna: 'Sauna',
  bar: 'Bar',
  club: 'Club',
  gym: 'Gym',
  woods: 'Woods',
  other: 'Other',
};

/** "5 here now", or "Fewer than 3 here": who is there is never shown. */
export function checkinLabel(n: number | null): string {
  return n === null ? `Fewer than ${CHECKIN_MIN_VISIBLE} here` : `${n} here now`;
}

/** Approved spots near me with their check-in counts, my proposals, and a way to suggest one. */
export function SpotsPanel({ spots }: { spots: ReturnType<typeof useSpots> }) {
  const [proposing, setProposing] = useState(false);
  const checkIn = useCheckIn();
  const toast = useToast();

  let body: React.ReactNode;
  if (spots.isPending) {
    body = (
      <div className="flex justify-center py-12">
        <Spinner label="Loading spots" />
      </div>
    );
  } else if (spots.isError) {
    body = (
      <LoadError
        title="Couldn't load spots"
        body={errorMessage(spots.error, CHECK_CONNECTION)}
        onRetry={() => spots.refetch()}
        variant="secondary"
      />
    );
  } else if (spots.data.items.length === 0) {
    body = (
      <EmptyState
        icon={<MapPinIcon />}
        title="No spots near you yet"
        body={
          spots.data.hasLocation
            ? 'Know a good place? Suggest it: once our team approves it, everyone nearby can check in.'
            : 'Share your location to see cruising spots within 25 km.'
        }
        action={spots.data.hasLocation ? undefined : <ShareLocationAction />}
      />
    );
  } else {
    body = (
      <ul aria-label="Cruising spots" className="flex flex-col gap-2">
        {spots.data.items.map((s) => {
          const checkedIn = s.myCheckinUntil !== null;
          return (
            <li key={s.id} className="flex items-center gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-line">
              {s.status === 'approved' ? (
                <span className="flex size-12 shrink-0 flex-col items-center justify-center rounded-xl bg-ink text-white">
                  <span className="text-base leading-none font-bold">{s.checkins ?? '<3'}</span>
                  <span className="text-[0.625rem] leading-tight">here</span>
                </span>
              ) : (
                <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-amber-100 text-amber-800">
                  <MapPinIcon width={22} height={22} />
                </span>
              )}
              <div className="flex min-w-0 flex-1 flex-col">
                <span className="truncate text-base font-bold text-ink">{s.name}</span>
                <span className="truncate text-sm text-muted">
                  {KIND_LABELS[s.kind]}
                  {s.distance ? ` · ${s.distance}` : ''}
                  {s.status === 'approved' ? ` · ${checkinLabel(s.checkins)}` : ''}
                </span>
                {s.status !== 'approved' ? (
                  <span className="mt-0.5 w-fit rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800">
                    {s.status === 'pending' ? 'Waiting for review' : 'Not approved'}
                  </span>
                ) : null}
              </div>
              {s.status === 'approved' ? (
                <button
                  type="button"
                  aria-pressed={checkedIn}
                  aria-label={checkedIn ? `Check out of ${s.name}` : `Check in to ${s.name}`}
                  disabled={checkIn.isPending}
                  onClick={() =>
                    checkIn.mutate(
                      { spotId: s.id, checkedIn },
                      {
                        onSuccess: () =>
                          toast.success(
                            checkedIn ? 'Checked out' : `Checked in to ${s.name}`,
                            checkedIn ? undefined : 'For the next hour.',
                          ),
                        onError: (e) => toast.error('Check-in failed', errorMessage(e, 'Please try again.')),
                      },
                    )
                  }
                  className={`min-h-10 shrink-0 rounded-full px-4 text-sm font-bold ${
                    checkedIn ? 'bg-primary-soft text-primary-strong' : 'border border-line bg-white text-ink hover:bg-canvas'
                  }`}
                >
                  {checkedIn ? 'Checked in' : 'Check in'}
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <div className="flex flex-col gap-3 px-4">
      <div className="flex items-center justify-between">
        <p className="text-sm text-muted">Counts show from {CHECKIN_MIN_VISIBLE} people; who is there is never shown.</p>
      </div>
      <Button variant="secondary" onClick={() => setProposing(true)}>
        <PlusIcon width={18} height={18} /> Suggest a spot
      </Button>
      {body}
      <ProposeSpotSheet open={proposing} onClose={() => setProposing(false)} />
    </div>
  );
}

function ProposeSpotSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const propose = useProposeSpot();
  const toast = useToast();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<SpotKind>('park');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [locating, setLocating] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setFields({});
    setLocating(true);
    let at: { lat: number; lng: number };
    try {
      at = await currentPosition();
    } catch (err) {
      setLocating(false);
      setError(err instanceof LocationError ? err.message : 'We could not find your position.');
      return;
    }
    setLocating(false);
    propose.mutate(
      { name, kind, description, ...at },
      {
        onSuccess: () => {
          toast.success('Spot suggested', 'Our team reviews it before it shows on the map.');
          setName('');
          setDescription('');
          onClose();
        },
        onError: (err) => {
          setError(errorMessage(err, 'Your suggestion was not sent. Please try again.'));
          if (err instanceof ApiError) setFields(err.fields);
        },
      },
    );
  };

  return (
    <Sheet open={open} onClose={onClose} title="Suggest a spot">
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4 pb-2" noValidate>
        <p className="text-sm text-muted">
          Stand at the spot: its position is where you are now. Our team checks every suggestion.
        </p>
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={80}
          required
          error={fields.name}
        />
        <SelectField label="Kind" value={kind} onChange={(e) => setKind(e.target.value as SpotKind)} error={fields.kind}>
          {SPOT_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </SelectField>
        <TextArea
          label="Description"
          hint="Optional: how to find it, the best time."
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          maxLength={500}
          error={fields.description}
        />
        <FormError>{error}</FormError>
        <Button type="submit" block loading={locating || propose.isPending} disabled={!name.trim()}>
          Send for review
        </Button>
      </form>
    </Sheet>
  );
}
