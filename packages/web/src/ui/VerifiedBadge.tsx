/** What the badge means, in words: for screen readers and the tooltip. */
export const VERIFIED_LABEL = 'Verified: confirmed his phone number';

/** A seal with a check, filled (the stroke icons in icons.tsx read too thin at badge size). */
function Seal({ size }: { size: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" className="shrink-0">
      <path
        fill="var(--color-primary-strong)"
        stroke="#ffffff"
        strokeWidth="1.5"
        d="M12 1.8l2.4 1.8 3-.2 1 2.8 2.5 1.7-.9 2.9.9 2.9-2.5 1.7-1 2.8-3-.2L12 20l-2.4-1.8-3 .2-1-2.8-2.5-1.7.9-2.9-.9-2.9 2.5-1.7 1-2.8 3 .2z"
      />
      <path
        d="M8.2 11.2l2.6 2.6 5-5"
        fill="none"
        stroke="#ffffff"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * The verified badge: the man confirmed a phone number by a texted code. Alone it is an image
 * with its meaning as its name; with `withLabel` it says 'Verified' beside the seal.
 */
export function VerifiedBadge({ size = 18, withLabel = false }: { size?: number; withLabel?: boolean }) {
  if (withLabel) {
    return (
      <span
        className="inline-flex items-center gap-1 rounded-full border border-primary/30 bg-primary-soft py-0.5 pr-2.5 pl-1 text-xs font-semibold text-ink"
        title={VERIFIED_LABEL}
      >
        <Seal size={size} />
        Verified
      </span>
    );
  }
  return (
    <span role="img" aria-label={VERIFIED_LABEL} title={VERIFIED_LABEL} className="inline-flex shrink-0">
      <Seal size={size} />
    </span>
  );
}
