import {
  FEEDBACK_CATEGORIES,
  FEEDBACK_CATEGORY_LABELS,
  FEEDBACK_TEXT_MAX,
  FEEDBACK_TEXT_MIN,
  type FeedbackCategory,
  type FeedbackKind,
  SupportMessages,
} from '@fmk/core';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { env } from '../../env.ts';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { CameraIcon } from '../../ui/icons.tsx';
import { SelectField, TextArea } from '../../ui/TextField.tsx';
import { useToast } from '../../ui/toast/ToastProvider.tsx';
import { useSendReportMutation } from './queries.ts';

const KINDS: { value: FeedbackKind; label: string; hint: string }[] = [
  { value: 'bug', label: 'Bug', hint: 'Something is broken' },
  { value: 'feedback', label: 'Feedback', hint: 'An idea or a wish' },
];

/** The checks the server makes, said before the round trip; the server's answer still wins. */
export function reportErrors(r: { category: string; text: string }): Record<string, string> {
  const errs: Record<string, string> = {};
  if (!r.category) errs.category = SupportMessages.chooseCategory;
  const n = r.text.trim().length;
  if (n < FEEDBACK_TEXT_MIN) errs.text = SupportMessages.textTooShort;
  else if (n > FEEDBACK_TEXT_MAX) errs.text = SupportMessages.textTooLong;
  return errs;
}

function ScreenshotPicker({ file, onChange }: { file: File | null; onChange: (f: File | null) => void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm font-semibold text-ink">Screenshot (optional)</span>
      {file ? (
        <div className="flex items-center gap-3 rounded-xl border border-line bg-white p-2">
          {preview ? <img src={preview} alt="Your screenshot" className="size-16 rounded-lg object-cover" /> : null}
          <span className="min-w-0 flex-1 truncate text-sm text-ink">{file.name}</span>
          <Button
            variant="ghost"
            className="min-h-10"
            onClick={() => {
              onChange(null);
              if (input.current) input.current.value = '';
            }}
          >
            Remove
          </Button>
        </div>
      ) : null}
      <label
        htmlFor={id}
        className={`flex min-h-12 cursor-pointer items-center justify-center gap-2 rounded-xl border border-dashed border-line bg-white px-4 text-base font-semibold text-ink hover:bg-canvas has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-primary-strong ${file ? 'sr-only' : ''}`}
      >
        <CameraIcon />
        Add a screenshot
        <input
          ref={input}
          id={id}
          type="file"
          accept="image/*"
          className="sr-only"
          onChange={(e) => onChange(e.target.files?.[0] ?? null)}
        />
      </label>
      <p className="text-sm text-muted">We remove its location and camera data before we keep it.</p>
    </div>
  );
}

/** The report form of /settings/bugs-feedback: what kind, about what, what happened, and a screenshot. */
export function ReportForm() {
  const toast = useToast();
  const send = useSendReportMutation();
  const [kind, setKind] = useState<FeedbackKind>('bug');
  const [category, setCategory] = useState<FeedbackCategory | ''>('');
  const [text, setText] = useState('');
  const [screenshot, setScreenshot] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const errs = reportErrors({ category, text });
    setErrors(errs);
    if (Object.keys(errs).length || !category) return;
    send.mutate(
      { kind, category, text: text.trim(), screenshot },
      {
        onSuccess: () => {
          toast.success('Thank you!', kind === 'bug' ? 'We will look into it.' : 'We read every message.');
          setText('');
          setCategory('');
          setScreenshot(null);
        },
        onError: (err) => {
          const fields = err instanceof ApiError ? err.fields : {};
          if (fields.text || fields.category) setErrors({ ...fields });
          else setError(errorMessage(err, 'Could not send your report. Please try again.'));
        },
      },
    );
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate aria-label="Send a report">
      <fieldset className="flex flex-col gap-1.5">
        <legend className="mb-1.5 text-sm font-semibold text-ink">What is it?</legend>
        <div className="flex gap-2">
          {KINDS.map((k) => (
            <label
              key={k.value}
              className="flex min-h-12 flex-1 cursor-pointer items-center gap-2 rounded-xl border border-line bg-white px-3 has-[:checked]:border-primary-strong has-[:checked]:bg-primary-soft"
            >
              <input
                type="radio"
                name="kind"
                value={k.value}
                checked={kind === k.value}
                onChange={() => setKind(k.value)}
                className="size-5 accent-primary-strong"
              />
              <span className="flex flex-col">
                <span className="text-base text-ink">{k.label}</span>
                <span className="text-xs text-muted">{k.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <SelectField
        label="What is it about?"
        value={category}
        onChange={(e) => setCategory(e.target.value as FeedbackCategory | '')}
        error={errors.category ?? null}
      >
        <option value="">Choose…</option>
        {FEEDBACK_CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {FEEDBACK_CATEGORY_LABELS[c]}
          </option>
        ))}
      </SelectField>
      <TextArea
        label={kind === 'bug' ? 'What happened?' : 'Tell us'}
        value={text}
        maxLength={FEEDBACK_TEXT_MAX}
        onChange={(e) => setText(e.target.value)}
        placeholder={
          kind === 'bug'
            ? 'What did you do, what did you expect, and what happened instead?'
            : 'What would make FMK better for you?'
        }
        hint={`${text.trim().length} / ${FEEDBACK_TEXT_MAX}. At least ${FEEDBACK_TEXT_MIN} characters.`}
        error={errors.text ?? null}
      />
      <ScreenshotPicker file={screenshot} onChange={setScreenshot} />
      <p className="text-sm text-muted">The app version ({env.appVersion}) and your browser are added for us automatically.</p>
      <FormError>{error}</FormError>
      <Button type="submit" block loading={send.isPending}>
        Send {kind === 'bug' ? 'bug report' : 'feedback'}
      </Button>
    </form>
  );
}
