import { TIER_NAMES, TIER_TABLE, TIERS, type Tier } from '@fmk/core';
import { CheckIcon } from '../../ui/icons.tsx';

/**
 * The spec's tier table (section 6), read from core: the same limits the server enforces. A
 * real <table> with row and column headers, so a screen reader reads each cell with its feature
 * and tier; the user's own tier's column is marked.
 */
export function TierTable({ current, caption = 'What each plan includes' }: { current?: Tier; caption?: string }) {
  return (
    // Wider than a phone: it scrolls sideways, so it takes focus to be scrolled from the keyboard.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
    <section aria-label={caption} tabIndex={0} className="overflow-x-auto rounded-2xl border border-line bg-white">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-line">
            <th scope="col" className="p-3 font-semibold text-muted">
              Feature
            </th>
            {TIERS.map((t) => (
              <th
                key={t}
                scope="col"
                aria-current={t === current ? 'true' : undefined}
                className={`p-3 text-center font-bold text-ink ${t === current ? 'bg-primary-soft' : ''}`}
              >
                {TIER_NAMES[t]}
                {t === current ? <span className="block text-xs font-semibold text-ink">Your plan</span> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {TIER_TABLE.map((row) => (
            <tr key={row.feature} className="border-b border-line last:border-b-0">
              <th scope="row" className="p-3 font-medium text-ink">
                {row.feature}
              </th>
              {TIERS.map((t) => {
                const v = row.values[t];
                return (
                  <td key={t} className={`p-3 text-center text-ink ${t === current ? 'bg-primary-soft/60' : ''}`}>
                    {typeof v === 'string' ? (
                      v
                    ) : v ? (
                      <>
                        <CheckIcon className="mx-auto text-emerald-700" />
                        <span className="sr-only">Included</span>
                      </>
                    ) : (
                      <>
                        <span aria-hidden="true" className="text-muted">
                          –
                        </span>
                        <span className="sr-only">Not included</span>
                      </>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
