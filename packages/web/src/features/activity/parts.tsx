import type { ActivityLog, Contact, Protection } from '@fmk/core';
import { StarIcon } from '../../ui/icons.tsx';
import { Pill } from '../../ui/Section.tsx';
import { useContactPhoto } from './queries.ts';

export const PROTECTION_LABEL: Record<Protection, string> = {
  protected: 'Protected',
  unprotected: 'Unprotected',
  'not-applicable': 'Not applicable',
};

export function ProtectionPill({ protection }: { protection: Protection }) {
  const tone = protection === 'protected' ? 'good' : protection === 'unprotected' ? 'warn' : 'neutral';
  return <Pill tone={tone}>{PROTECTION_LABEL[protection]}</Pill>;
}

/** Read-only stars: '4 of 5 stars' for screen readers. */
export function Stars({ rating }: { rating: number }) {
  return (
    <span className="inline-flex items-center gap-0.5 text-amber-500" role="img" aria-label={`${rating} of 5 stars`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon
          key={n}
          width={14}
          height={14}
          fill={n <= rating ? 'currentColor' : 'none'}
          className={n <= rating ? '' : 'text-line'}
        />
      ))}
    </span>
  );
}

/** A contact's photo in a circle, or his initials while it loads, when it fails or when there is none. */
export function ContactAvatar({ contact, size = 40 }: { contact: Pick<Contact, 'name' | 'photoURL'>; size?: number }) {
  const { src, failed } = useContactPhoto(contact.photoURL);
  if (!src || failed) return <Initials name={contact.name} size={size} />;
  return (
    <img
      src={src}
      alt=""
      width={size}
      height={size}
      style={{ width: size, height: size }}
      className="shrink-0 rounded-full bg-canvas object-cover"
    />
  );
}

/** Initials in a soft circle: contacts have no photos by default (they are someone else's face). */
export function Initials({ name, size = 40 }: { name: string; size?: number }) {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');
  return (
    <span
      aria-hidden="true"
      style={{ width: size, height: size }}
      className="flex shrink-0 items-center justify-center rounded-full bg-primary-soft text-sm font-bold text-primary-strong"
    >
      {letters || '?'}
    </span>
  );
}

/** 'Sam, Alex' from contact ids (a deleted contact shows as such). */
export function partnerNames(log: Pick<ActivityLog, 'partners'>, names: ReadonlyMap<string, string>): string {
  return log.partners.map((p) => names.get(p) ?? 'Removed contact').join(', ');
}

export function formatDuration(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}
