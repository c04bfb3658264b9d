import type { DataExport } from '@fmk/core';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { downloadExport, useDataExport, useStartExport } from './queries.ts';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    day: 'numeric',
    month: 'short',
  });

function sizeLabel(bytes: number | null): string {
  if (bytes === null) return '';
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function Progress({ value }: { value: number }) {
  return (
    <div
      role="progressbar"
      aria-label="Preparing your data"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className="h-2 w-full overflow-hidden rounded-full bg-canvas"
    >
      <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${Math.max(4, value)}%` }} />
    </div>
  );
}

/** What the newest archive looks like: building with its progress, ready to save, failed or gone. */
function ExportState({ e, onDownload, downloading }: { e: DataExport; onDownload: () => void; downloading: boolean }) {
  if (e.status === 'building') {
    return (
      <div className="flex flex-col gap-2" role="status">
        <p className="text-sm text-ink">Preparing your data... {e.progress}%</p>
        <Progress value={e.progress} />
      </div>
    );
  }
  if (e.status === 'ready' && e.expiresAt) {
    return (
      <div className="flex flex-col gap-2 rounded-xl bg-canvas p-3">
        <p className="text-sm text-ink">
          Your data is ready ({sizeLabel(e.bytes)}). You can download it until{' '}
          <span className="font-semibold">{when(e.expiresAt)}</span>, then it is deleted.
        </p>
        <Button variant="secondary" onClick={onDownload} loading={downloading} className="self-start">
          Download zip
        </Button>
      </div>
    );
  }
  if (e.status === 'failed') {
    return <p className="text-sm text-ink">We could not prepare your last copy. Please ask again.</p>;
  }
  return <p className="text-sm text-muted">Your last copy has expired and was deleted.</p>;
}

/**
 * Settings' 'Download my data': one zip of everything the server keeps about you, prepared in the
 * background (the progress shows here, and a mail says when it is ready), kept for 24 hours.
 */
export function DataExportPanel() {
  const current = useDataExport();
  const start = useStartExport();
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest = current.data ?? null;

  const download = async (id: string) => {
    setError(null);
    setDownloading(true);
    try {
      await downloadExport(id);
    } catch (err) {
      setError(errorMessage(err, 'We could not download your data. Please try again.'));
      void current.refetch();
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="flex flex-col gap-3 border-t border-line pt-3 pb-2">
      <div className="flex flex-col">
        <h3 className="text-base font-semibold text-ink">Download my data</h3>
        <p className="text-sm text-muted">
          A zip of everything we keep about you: profile, photos, matches, messages, health and the rest.
        </p>
      </div>
      {current.isPending ? (
        <Spinner size={20} label="Checking for a copy of your data" />
      ) : current.isError ? (
        // Not an alert: nothing the person did failed, the panel only could not look.
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-sm text-ink">{errorMessage(current.error, 'Could not check for your data.')}</p>
          <Button variant="ghost" onClick={() => void current.refetch()}>
            Check again
          </Button>
        </div>
      ) : latest ? (
        <ExportState e={latest} downloading={downloading} onDownload={() => void download(latest.id)} />
      ) : null}
      {latest?.status === 'building' ? null : (
        <Button
          variant="secondary"
          className="self-start"
          loading={start.isPending}
          disabled={current.isPending}
          onClick={() => {
            setError(null);
            start.mutate();
          }}
        >
          {latest?.status === 'ready' ? 'Prepare a new copy' : 'Prepare my data'}
        </Button>
      )}
      <FormError>{error ?? (start.isError ? errorMessage(start.error, 'Could not start. Please try again.') : null)}</FormError>
    </div>
  );
}
