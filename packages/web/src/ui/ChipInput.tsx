import { type KeyboardEvent, useId, useState } from 'react';
import { FormError } from './FormError.tsx';
import { CloseIcon, PlusIcon } from './icons.tsx';

/**
 * A list of short tags: type and press Enter (or a comma) to add, × to remove, or tap a
 * suggestion. Duplicates (ignoring case) are not added; at most `max` tags of `maxLength` chars.
 */
export function ChipInput({
  label,
  values,
  onChange,
  suggestions = [],
  max = 20,
  maxLength = 60,
  error,
}: {
  label: string;
  values: readonly string[];
  onChange: (next: string[]) => void;
  suggestions?: readonly string[];
  max?: number;
  maxLength?: number;
  error?: string | null | undefined;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const has = (v: string) => values.some((x) => x.toLowerCase() === v.toLowerCase());
  const full = values.length >= max;

  const add = (raw: string) => {
    const v = raw.trim().slice(0, maxLength);
    if (!v || has(v) || full) return;
    onChange([...values, v]);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      add(text);
      setText('');
    } else if (e.key === 'Backspace' && !text && values.length) {
      onChange(values.slice(0, -1));
    }
  };
  const q = text.trim().toLowerCase();
  const offered = suggestions.filter((s) => !has(s) && (!q || s.toLowerCase().includes(q))).slice(0, 6);

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      {values.length ? (
        <ul className="flex flex-wrap gap-2" aria-label={`${label}: chosen`}>
          {values.map((v) => (
            <li
              key={v}
              className="inline-flex items-center gap-1 rounded-full bg-primary-soft py-1 pr-1 pl-3 text-sm font-medium text-ink"
            >
              {v}
              <button
                type="button"
                aria-label={`Remove ${v}`}
                onClick={() => onChange(values.filter((x) => x !== v))}
                className="rounded-full p-1 text-primary-strong hover:bg-white"
              >
                <CloseIcon width={14} height={14} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        id={id}
        value={text}
        disabled={full}
        maxLength={maxLength}
        enterKeyHint="done"
        placeholder={full ? `Up to ${max}` : 'Type and press Enter'}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="block w-full rounded-xl border border-line bg-white px-4 py-2.5 text-base text-ink placeholder:text-muted focus:border-primary-strong focus:outline-3 focus:outline-offset-0 focus:outline-primary/30"
      />
      {offered.length && !full ? (
        <ul className="flex flex-wrap gap-2" aria-label={`${label}: suggestions`}>
          {offered.map((s) => (
            <li key={s}>
              <button
                type="button"
                onClick={() => {
                  add(s);
                  setText('');
                }}
                className="inline-flex min-h-8 items-center gap-1 rounded-full border border-dashed border-line px-3 text-sm text-muted hover:border-primary-strong hover:text-primary-strong"
              >
                <PlusIcon width={14} height={14} />
                <span className="sr-only">Add </span>
                {s}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <FormError id={`${id}-error`}>{error}</FormError>
    </div>
  );
}
