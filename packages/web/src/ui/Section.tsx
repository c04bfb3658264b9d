import { type ReactNode, useId } from 'react';

/** A titled block of a screen, with an optional action on the right of its heading. */
export function Section({
  title,
  action,
  children,
  className,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={`flex flex-col gap-3 px-4 py-3${className ? ` ${className}` : ''}`}>
      <div className="flex min-h-9 items-center justify-between gap-3">
        <h2 id={id} className="text-base font-bold text-ink">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** A white rounded card on the page. */
export function Card({
  children,
  className,
  tone = 'plain',
}: {
  children: ReactNode;
  className?: string;
  tone?: 'plain' | 'alert' | 'good';
}) {
  const tones = {
    plain: 'border-line bg-white',
    alert: 'border-primary/40 bg-primary-soft',
    good: 'border-emerald-200 bg-emerald-50',
  } as const;
  return <div className={`rounded-2xl border p-4 ${tones[tone]}${className ? ` ${className}` : ''}`}>{children}</div>;
}

/** A small status label. */
export function Pill({ children, tone = 'neutral' }: { children: ReactNode; tone?: 'neutral' | 'alert' | 'good' | 'warn' }) {
  const tones = {
    neutral: 'bg-canvas text-muted border-line',
    alert: 'bg-primary-soft text-primary-strong border-primary/30',
    good: 'bg-emerald-50 text-emerald-800 border-emerald-200',
    warn: 'bg-amber-50 text-amber-900 border-amber-200',
  } as const;
  return (
    <span className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${tones[tone]}`}>
      {children}
    </span>
  );
}

/** Several-of-many choice as toggle chips (aria-pressed), in a labelled group. */
export function ToggleChips({
  label,
  options,
  selected,
  onToggle,
}: {
  label: string;
  options: readonly { value: string; label: string }[];
  selected: readonly string[];
  onToggle: (value: string) => void;
}) {
  return (
    <fieldset className="flex flex-col">
      <legend className="mb-2 text-sm font-semibold text-ink">{label}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((o) => {
          const on = selected.includes(o.value);
          return (
            <button
              key={o.value}
              type="button"
              aria-pressed={on}
              onClick={() => onToggle(o.value)}
              className={`min-h-10 rounded-full border px-3.5 text-sm font-medium transition-colors ${
                on ? 'border-primary-strong bg-primary-soft text-primary-strong' : 'border-line bg-white text-ink hover:bg-canvas'
              }`}
            >
              {o.label}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

/** One-of-few choice as a segmented control: native radios, so arrow keys and labels just work. */
export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T | null;
  onChange: (v: T) => void;
}) {
  const name = useId();
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-semibold text-ink">{label}</legend>
      <div className="flex rounded-full border border-line bg-canvas p-1">
        {options.map((o) => (
          <label
            key={o.value}
            className={`flex min-h-10 flex-1 cursor-pointer items-center justify-center rounded-full px-2 text-center text-sm font-semibold has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-primary-strong ${
              value === o.value ? 'bg-white text-primary-strong shadow-sm' : 'text-muted'
            }`}
          >
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="sr-only"
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
