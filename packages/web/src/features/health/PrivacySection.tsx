import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { DownloadIcon, LockIcon } from '../../ui/icons.tsx';
import { Section } from '../../ui/Section.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { downloadPrivateData, useDeleteAllPrivateDataMutation } from './privacy.ts';

/** "Your data": what protects it, export as JSON or CSV, and delete everything. */
export function PrivacySection() {
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState<'json' | 'csv' | null>(null);
  const del = useDeleteAllPrivateDataMutation();
  const toast = useToast();

  const download = async (format: 'json' | 'csv') => {
    setBusy(format);
    try {
      await downloadPrivateData(format);
    } catch (err) {
      toast.error(errorMessage(err, 'We could not prepare your export. Please try again.'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Section title="Your data">
      <div className="flex gap-3 rounded-2xl bg-canvas p-4">
        <LockIcon className="mt-0.5 shrink-0 text-primary-strong" />
        <p className="text-sm text-muted">
          Health and activity records are encrypted with a key of your own. Nobody else can read them: not other members, not our
          staff.
        </p>
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Button variant="secondary" loading={busy === 'json'} onClick={() => void download('json')}>
          <DownloadIcon width={18} height={18} /> Export JSON
        </Button>
        <Button variant="secondary" loading={busy === 'csv'} onClick={() => void download('csv')}>
          <DownloadIcon width={18} height={18} /> Export CSV
        </Button>
      </div>
      <Button variant="danger" block onClick={() => setConfirm(true)}>
        Delete all health and activity data
      </Button>
      <Sheet open={confirm} onClose={() => setConfirm(false)} title="Delete everything?">
        <div className="flex flex-col gap-4 pb-2">
          <p className="text-base text-ink">
            Your medications, their history, screenings, contacts and activity log will be deleted for good, along with the key
            that protects them. Export first if you want a copy.
          </p>
          <Button
            variant="danger"
            block
            loading={del.isPending}
            onClick={() =>
              del.mutate(undefined, {
                onSuccess: () => {
                  setConfirm(false);
                  toast.success('All health and activity data deleted');
                },
                onError: (err) => toast.error(errorMessage(err, 'We could not delete your data. Please try again.')),
              })
            }
          >
            Delete everything
          </Button>
          <Button variant="secondary" block onClick={() => setConfirm(false)}>
            Cancel
          </Button>
        </div>
      </Sheet>
    </Section>
  );
}
