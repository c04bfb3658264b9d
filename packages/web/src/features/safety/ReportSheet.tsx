import {
  REPORT_CATEGORIES,
  REPORT_CATEGORY_LABELS,
  REPORT_DESCRIPTION_MAX,
  REPORT_REASON_MAX,
  REPORT_REASON_MIN,
  REPORT_SCREENSHOTS_MAX,
  type ReportCategory,
  ReportMessages,
} from '@fmk/core';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { CameraIcon } from '../../ui/icons.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { SelectField, TextArea, TextField } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useReportMutation } from './queries.ts';

/** The checks the server makes, said before the round trip; the server's answer still wins. */
export function reportSheetErrors(r: { reason: string; category: string }): Record<string, string> {
  const errs: Record<string, string> = {};
  if (r.reason.trim().length < REPORT_REASON_MIN) errs.reason = ReportMessages.reasonMissing;
  if (!r.category) errs.category = ReportMessages.chooseCategory;
  return errs;
}

function Screenshots({ files, onChange }: { files: File[]; onChange: (f: File[]) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm font-semibold text-ink">Screenshots (optional, up to {REPORT_SCREENSHOTS_MAX})</span>
      {files.length ? (
        <ul className="flex flex-col gap-1" aria-label="Attached screenshots">
          {files.map((f, i) => (
            <li
              key={`${f.name}-${f.size}-${f.lastModified}`}
              className="flex items-center gap-2 rounded-xl border border-line bg-white px-3 py-1"
            >
              <span className="min-w-0 flex-1 truncate text-sm text-ink">{f.name}</span>
              <Button variant="ghost" className="min-h-10" onClick={() => onChange(files.filter((_, j) => j !== i))}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {files.length < REPORT_SCREENSHOTS_MAX ? (
        <label
          htmlFor={id}
          className="flex min-h-12 cursor-pointer items-center justify-center gap-2 rounded-xl border border-dashed border-line bg-white px-4 text-base font-semibold text-ink hover:bg-canvas has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-primary-strong"
        >
          <CameraIcon />
          Add a screenshot
          <input
            id={id}
            type="file"
            accept="image/*"
            multiple
            className="sr-only"
            onChange={(e) => {
              onChange([...files, ...Array.from(e.target.files ?? [])].slice(0, REPORT_SCREENSHOTS_MAX));
              e.target.value = '';
            }}
          />
        </label>
      ) : null}
      <p className="text-sm text-muted">Only our safety team sees them; we remove location and camera data first.</p>
    </div>
  );
}

/** Report a man (from his profile, a chat or a grid cell): what happened, evidence, and 'Also block him'. */
export function ReportSheet({
  open,
  onClose,
  userId,
  name,
  messageIds = [],
  note,
  leaveTo = '/messages',
}: {
  open: boolean;
  onClose: () => void;
  userId: string;
  name: string;
  /** Messages of our chat to keep as evidence (the chat's latest from him). */
  messageIds?: string[];
  /** Where the report was made, for staff (a call's screen): put before his details. */
  note?: string;
  /** Where to go after reporting and blocking him; null stays (the grid drops him itself). */
  leaveTo?: string | null;
}) {
  const report = useReportMutation();
  const toast = useToast();
  const navigate = useNavigate();
  const [reason, setReason] = useState('');
  const [category, setCategory] = useState<ReportCategory | ''>('');
  const [description, setDescription] = useState('');
  const [screenshots, setScreenshots] = useState<File[]>([]);
  const [block, setBlock] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const blockId = useId();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const errs = reportSheetErrors({ reason, category });
    setErrors(errs);
    if (Object.keys(errs).length || !category) return;
    // mutateAsync, not mutate's callbacks: a block removes this chat (and this sheet) first.
    report
      .mutateAsync({
        userId,
        reason: reason.trim(),
        category,
        description: [note, description.trim()].filter(Boolean).join('\n').slice(0, REPORT_DESCRIPTION_MAX),
        screenshots,
        messageIds,
        block,
      })
      .then(
        () => {
          onClose();
          toast.success('Report sent', 'Our team will review it. Follow it in the Safety centre.');
          if (block && leaveTo) navigate(leaveTo, { replace: true });
        },
        (err: unknown) => {
          const fields = err instanceof ApiError ? err.fields : {};
          if (fields.reason || fields.category) setErrors({ ...fields });
          else setError(errorMessage(err, 'Could not send your report. Please try again.'));
        },
      );
  };

  return (
    <Sheet open={open} onClose={onClose} title={`Report ${name}`}>
      <form className="flex flex-col gap-4 pb-2" onSubmit={onSubmit} noValidate aria-label={`Report ${name}`}>
        <SelectField
          label="What kind of problem?"
          value={category}
          onChange={(e) => setCategory(e.target.value as ReportCategory | '')}
          error={errors.category ?? null}
        >
          <option value="">Choose…</option>
          {REPORT_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {REPORT_CATEGORY_LABELS[c]}
            </option>
          ))}
        </SelectField>
        <TextField
          label="What happened, in a few words"
          value={reason}
          maxLength={REPORT_REASON_MAX}
          onChange={(e) => setReason(e.target.value)}
          error={errors.reason ?? null}
        />
        <TextArea
          label="Details (optional)"
          value={description}
          maxLength={REPORT_DESCRIPTION_MAX}
          onChange={(e) => setDescription(e.target.value)}
          hint={messageIds.length ? 'His latest messages to you are attached as evidence.' : undefined}
        />
        <Screenshots files={screenshots} onChange={setScreenshots} />
        <label htmlFor={blockId} className="flex min-h-12 items-center gap-3 rounded-xl border border-line bg-white px-3">
          <input
            id={blockId}
            type="checkbox"
            checked={block}
            onChange={(e) => setBlock(e.target.checked)}
            className="size-5 accent-primary-strong"
          />
          <span className="text-base text-ink">Also block him</span>
        </label>
        <FormError>{error}</FormError>
        <Button type="submit" variant="danger" block loading={report.isPending}>
          Send report
        </Button>
        <Button variant="secondary" block onClick={onClose}>
          Cancel
        </Button>
      </form>
    </Sheet>
  );
}
