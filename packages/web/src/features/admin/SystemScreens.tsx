import { type FormEvent, useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { FeatureSwitches } from './FeaturesScreen.tsx';
import { QueryState, ScreenTitle } from './parts.tsx';
import { adminKeys, mayUse, useAdminMe, useStaffMutation, useStaffQuery } from './queries.ts';
import { staffCall } from './session.ts';

/** system/settings: the beta settings (spec section 3): enabled, maxUsers, currentCount, lifetimePremium, autoClose; and the feature switches. */
export function SystemSettingsScreen() {
  const me = useAdminMe().data;
  const q = useStaffQuery(adminKeys.beta(), () => staffCall('GET /admin/system/settings'));
  const [form, setForm] = useState({ enabled: false, maxUsers: 1000, lifetimePremium: true, autoClose: true, reason: '' });
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (q.data) setForm((f) => ({ ...f, ...q.data }));
  }, [q.data]);
  const save = useStaffMutation(() =>
    staffCall('PUT /admin/system/settings', {
      body: {
        enabled: form.enabled,
        maxUsers: form.maxUsers,
        lifetimePremium: form.lifetimePremium,
        autoClose: form.autoClose,
        reason: form.reason,
      },
    }),
  );
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    save.mutate(undefined, { onSuccess: () => setSaved(true), onError: (err) => setError(errorMessage(err, 'Not saved.')) });
  };
  const editable = mayUse(me, 'system_admin.configure');
  const box = (key: 'enabled' | 'lifetimePremium' | 'autoClose', label: string) => (
    <label className="flex items-center gap-3 text-ink">
      <input
        type="checkbox"
        className="size-5 accent-[#FF4458]"
        disabled={!editable}
        checked={form[key]}
        onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.checked }))}
      />
      {label}
    </label>
  );
  return (
    <>
      <ScreenTitle>Beta settings</ScreenTitle>
      <QueryState q={q} what="the beta settings">
        {(b) => (
          <form onSubmit={onSubmit} className="flex max-w-md flex-col gap-4">
            <p className="text-sm text-muted">
              {b.currentCount} of {b.maxUsers} beta places taken.
            </p>
            {box('enabled', 'Open beta enabled')}
            {box('lifetimePremium', 'Beta users get lifetime Premium')}
            {box('autoClose', 'Close the beta when it is full')}
            <TextField
              label="Maximum beta users"
              type="number"
              min={0}
              disabled={!editable}
              value={form.maxUsers}
              onChange={(e) => setForm((f) => ({ ...f, maxUsers: Number(e.target.value) }))}
            />
            {editable ? (
              <>
                <TextField
                  label="Reason for the change"
                  value={form.reason}
                  onChange={(e) => setForm((f) => ({ ...f, reason: e.target.value }))}
                />
                <FormError>{error}</FormError>
                {saved ? (
                  <p role="status" className="text-sm text-ink">
                    Saved.
                  </p>
                ) : null}
                <Button type="submit" loading={save.isPending}>
                  Save
                </Button>
              </>
            ) : null}
          </form>
        )}
      </QueryState>
      {mayUse(me, 'subscriptions.view') ? (
        <div className="mt-8">
          <FeatureSwitches />
        </div>
      ) : null}
    </>
  );
}
