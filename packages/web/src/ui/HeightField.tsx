import { FormError } from './FormError.tsx';
import { TextField } from './TextField.tsx';

type Units = 'imperial' | 'metric';
export type HeightPart = 'heightCm' | 'heightFeet' | 'heightInches';

/** A height as typed: in the units shown, digits only, kept as text until the form is read. */
export interface HeightInput {
  units: Units;
  heightCm: string;
  heightFeet: string;
  heightInches: string;
}

/** Longest a part can be: 250 cm, 8 ft, 11 in. */
const DIGITS: Record<HeightPart, number> = { heightCm: 3, heightFeet: 1, heightInches: 2 };

/**
 * A height in feet and inches or in centimetres, with the units switch. The caller converts on
 * a switch (so the height typed is kept) and checks the range.
 */
export function HeightField({
  value,
  onUnits,
  onChange,
  error,
}: {
  value: HeightInput;
  onUnits: (units: Units) => void;
  onChange: (part: HeightPart, digits: string) => void;
  error?: string | null;
}) {
  const field = (part: HeightPart, label: string) => (
    <TextField
      label={label}
      inputMode="numeric"
      value={value[part]}
      onChange={(e) => onChange(part, e.target.value.replace(/[^\d]/g, '').slice(0, DIGITS[part]))}
    />
  );
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-sm font-semibold text-ink">Height</legend>
      <div className="flex gap-1 rounded-full bg-canvas p-1">
        {(['imperial', 'metric'] as const).map((u) => (
          <label
            key={u}
            className={`flex min-h-10 flex-1 cursor-pointer items-center justify-center rounded-full text-sm font-semibold has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-primary-strong ${
              value.units === u ? 'bg-white text-primary-strong shadow-sm' : 'text-muted'
            }`}
          >
            <input
              type="radio"
              name="units"
              value={u}
              checked={value.units === u}
              onChange={() => onUnits(u)}
              className="sr-only"
            />
            {u === 'imperial' ? 'ft / in' : 'cm'}
          </label>
        ))}
      </div>
      {value.units === 'imperial' ? (
        <div className="grid grid-cols-2 gap-3">
          {field('heightFeet', 'Feet')}
          {field('heightInches', 'Inches')}
        </div>
      ) : (
        field('heightCm', 'Centimetres')
      )}
      <FormError>{error}</FormError>
    </fieldset>
  );
}
