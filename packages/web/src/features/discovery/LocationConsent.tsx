import { Button } from '../../ui/Button.tsx';
import { MapPinIcon, ShieldIcon } from '../../ui/icons.tsx';
import { LOCATION_MESSAGES, useShareLocation } from './location.ts';

export function LocationConsent() {
  const { status, problem, share } = useShareLocation();
  return (
    <section
      aria-labelledby="consent-title"
      className="mx-4 mt-4 flex flex-col items-center gap-4 rounded-3xl border border-line bg-white px-5 py-8 text-center"
    >
      <span className="flex size-16 items-center justify-center rounded-full bg-primary-soft text-primary-strong">
        <MapPinIcon width={32} height={32} />
      </span>
      <h2 id="consent-title" className="text-xl font-bold text-ink">
        See who's nearby
      </h2>
      <p className="max-w-xs text-base text-muted">
        Share your approximate location to see men nearby. Others only ever see a rounded distance.
      </p>
      {problem ? (
        <p role="alert" className="max-w-xs text-sm font-medium text-primary-strong">
          {LOCATION_MESSAGES[problem]}
        </p>
      ) : null}
      <Button block onClick={() => void share()} loading={status === 'working'}>
        <MapPinIcon width={20} height={20} />
        {problem ? 'Try again' : 'Share my location'}
      </Button>
      <p className="max-w-xs text-sm text-muted">
        <ShieldIcon width={16} height={16} className="mr-1 inline-block align-[-3px] text-emerald-700" />
        Your exact position is never shown to anyone.
      </p>
    </section>
  );
}
