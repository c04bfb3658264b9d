import type { FeatureFlag } from '@fmk/core';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { QueryState, ScreenTitle, TableWrap, tableClass, tdClass, thClass } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

/** subscriptions/limits: the feature flags (spec section 3) that set what each tier may use. */
export function LimitsScreen() {
  return (
    <>
      <ScreenTitle>Limits and feature flags</ScreenTitle>
      <FeatureSwitches />
    </>
  );
}

/**
 * The feature flags: id, enabled, premium and a free user's daily limit. Every staff member with
 * subscriptions.view reads them; only subscriptions.configure (owner, super_admin) edits, each
 * change one PATCH the server audits.
 */
export function FeatureSwitches() {
  const me = useAdminMe().data;
  const q = useStaffQuery(adminKeys.features(), () => staffCall('GET /admin/features'));
  const editable = mayUse(me, 'subscriptions.configure');
  const [error, setError] = useState<string | null>(null);
  const edit = useStaffMutation((v: { id: string; patch: Partial<Pick<FeatureFlag, 'isEnabled' | 'isPremium' | 'limit'>> }) =>
    staffCall('PATCH /admin/features/:id', { params: { id: v.id }, body: v.patch }),
  );
  const change = (id: string, patch: Partial<Pick<FeatureFlag, 'isEnabled' | 'isPremium' | 'limit'>>) => {
    setError(null);
    edit.mutate({ id, patch }, { onError: (err) => setError(errorMessage(err, 'The change was not saved.')) });
  };
  return (
    <section aria-label="Feature switches" className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold text-ink">Feature switches</h2>
      <FormError>{error}</FormError>
      <QueryState q={q} what="the feature flags" isEmpty={(d) => d.flags.length === 0} empty={{ title: 'No feature flags' }}>
        {(d) => (
          <TableWrap label="Feature flags">
            <table className={tableClass}>
              <thead>
                <tr>
                  <th className={thClass}>Feature</th>
                  <th className={thClass}>Enabled</th>
                  <th className={thClass}>Premium</th>
                  <th className={thClass}>Free daily limit</th>
                </tr>
              </thead>
              <tbody>
                {d.flags.map((f) => (
                  <FlagRow key={f.id} flag={f} editable={editable} onChange={(p) => change(f.id, p)} />
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </QueryState>
    </section>
  );
}

function FlagRow({
  flag,
  editable,
  onChange,
}: {
  flag: FeatureFlag;
  editable: boolean;
  onChange: (p: Partial<Pick<FeatureFlag, 'isEnabled' | 'isPremium' | 'limit'>>) => void;
}) {
  const [limit, setLimit] = useState(flag.limit === null ? '' : String(flag.limit));
  const box = (key: 'isEnabled' | 'isPremium', label: string) => (
    <input
      type="checkbox"
      aria-label={`${label}: ${flag.id}`}
      className="size-5 accent-[#FF4458]"
      disabled={!editable}
      checked={flag[key]}
      onChange={(e) => onChange({ [key]: e.target.checked })}
    />
  );
  return (
    <tr data-testid="flag">
      <td className={tdClass}>{flag.id}</td>
      <td className={tdClass}>{box('isEnabled', 'Enabled')}</td>
      <td className={tdClass}>{box('isPremium', 'Premium')}</td>
      <td className={tdClass}>
        {editable ? (
          <form
            className="flex items-center gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              // Empty means unlimited, as 0 and -1 do.
              onChange({ limit: limit.trim() === '' ? null : Number(limit) });
            }}
          >
            <input
              type="number"
              min={-1}
              step={1}
              aria-label={`Daily limit: ${flag.id}`}
              className="w-24 rounded-lg border border-line px-2 py-1"
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
            />
            <Button type="submit" variant="secondary" className="min-h-9 px-3 text-sm">
              Save
            </Button>
          </form>
        ) : (
          (flag.limit ?? 'unlimited')
        )}
      </td>
    </tr>
  );
}
