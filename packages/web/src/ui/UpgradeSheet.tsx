import { ButtonLink } from './Button.tsx';
import { StarIcon } from './icons.tsx';
import { Sheet } from './Sheet.tsx';

/** The upgrade prompt of a limit (spec section 6): the limit's own message, a way to Premium. */
export function UpgradeSheet({
  open,
  onClose,
  title,
  message,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  message: string;
}) {
  return (
    <Sheet open={open} onClose={onClose} title={title}>
      <div className="flex flex-col items-center gap-4 pb-2 text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-amber-100 text-amber-700">
          <StarIcon width={32} height={32} fill="currentColor" />
        </span>
        <p className="text-base text-ink">{message}</p>
        <ButtonLink to="/settings/premium" block onClick={onClose}>
          See Premium
        </ButtonLink>
        <button type="button" onClick={onClose} className="min-h-11 text-base font-semibold text-muted">
          Not now
        </button>
      </div>
    </Sheet>
  );
}

/** A small "Premium" mark beside a feature that needs it. */
export function PremiumBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-bold text-amber-800">
      <StarIcon width={12} height={12} fill="currentColor" />
      Premium
    </span>
  );
}
