import { ADVANCED_FILTERS_UPSELL, formatHeight, MAX_AGE, MIN_AGE, POSITIONS, type Preferences, SHOW_ME } from '@fmk/core';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { SelectField } from '../../ui/TextField.tsx';
import { PremiumBadge } from '../../ui/UpgradeSheet.tsx';
import { SUGGESTIONS } from '../profiles/options.ts';
import type { AdvancedFilters } from './filters.ts';

const SHOW_ME_LABELS: Record<(typeof SHOW_ME)[number], string> = {
  everyone: 'Everyone',
  men: 'Men',
  trans: 'Trans men',
  nonbinary: 'Non-binary people',
};
const HEIGHTS = Array.from({ length: 15 }, (_, i) => 155 + i * 5);
export const MAX_DISTANCE_CHOICES = [1, 2, 5, 10, 25, 50, 100, 250, 500] as const;

export interface FiltersValue {
  preferences: Pick<Preferences, 'ageRange' | 'maxDistance' | 'showMe'>;
  advanced: AdvancedFilters;
}

/** The grid's filters: basic for everyone, advanced for Premium (free users see them, badged). */
export function FiltersSheet({
  open,
  onClose,
  value,
  units,
  premium,
  saving,
  onApply,
  onUpsell,
}: {
  open: boolean;
  onClose: () => void;
  value: FiltersValue;
  units: 'imperial' | 'metric';
  premium: boolean;
  saving: boolean;
  onApply: (v: FiltersValue) => void;
  onUpsell: (message: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  // Each opening starts from what applies now.
  useEffect(() => {
    if (open) setDraft(value);
  }, [open, value]);
  const [min, max] = draft.preferences.ageRange;
  const setPrefs = (p: Partial<FiltersValue['preferences']>) =>
    setDraft((d) => ({ ...d, preferences: { ...d.preferences, ...p } }));
  const setAdvanced = (a: AdvancedFilters) => {
    if (!premium) {
      onUpsell(ADVANCED_FILTERS_UPSELL);
      return;
    }
    setDraft((d) => ({ ...d, advanced: { ...d.advanced, ...a } }));
  };
  const unit = units === 'imperial' ? 'mi' : 'km';
  const adv = draft.advanced;

  return (
    <Sheet open={open} onClose={onClose} title="Filters">
      <form
        className="flex flex-col gap-5"
        onSubmit={(e) => {
          e.preventDefault();
          onApply(draft);
        }}
      >
        <Range
          label="Age"
          value={`${min}–${max}${max >= MAX_AGE ? '+' : ''}`}
          inputs={[
            {
              label: 'Minimum age',
              min: MIN_AGE,
              max: MAX_AGE,
              value: min,
              onChange: (v) => setPrefs({ ageRange: [v, Math.max(v, max)] }),
            },
            {
              label: 'Maximum age',
              min: MIN_AGE,
              max: MAX_AGE,
              value: max,
              onChange: (v) => setPrefs({ ageRange: [Math.min(min, v), v] }),
            },
          ]}
        />
        <Range
          label="Maximum distance"
          value={`${draft.preferences.maxDistance} ${unit}`}
          inputs={[
            {
              label: 'Maximum distance',
              min: 0,
              max: MAX_DISTANCE_CHOICES.length - 1,
              value: nearestChoice(draft.preferences.maxDistance),
              valueText: `${draft.preferences.maxDistance} ${unit}`,
              onChange: (i) => setPrefs({ maxDistance: MAX_DISTANCE_CHOICES[i] ?? 50 }),
            },
          ]}
        />
        <SelectField
          label="Show me"
          value={draft.preferences.showMe}
          onChange={(e) => setPrefs({ showMe: e.target.value as FiltersValue['preferences']['showMe'] })}
        >
          {SHOW_ME.map((s) => (
            <option key={s} value={s}>
              {SHOW_ME_LABELS[s]}
            </option>
          ))}
        </SelectField>

        <fieldset className="flex flex-col gap-3 rounded-2xl border border-line p-4">
          <legend className="flex items-center gap-2 px-1 text-base font-bold text-ink">
            Advanced filters {premium ? null : <PremiumBadge />}
          </legend>
          <Switch
            label="Online now"
            checked={adv.onlineOnly === true}
            onChange={(on) => setAdvanced({ onlineOnly: on || undefined })}
          />
          <Switch
            label="With photos"
            checked={adv.withPhotos === true}
            onChange={(on) => setAdvanced({ withPhotos: on || undefined })}
          />
          <SelectField
            label="Position"
            value={adv.position ?? ''}
            onChange={(e) => setAdvanced({ position: (e.target.value || undefined) as AdvancedFilters['position'] })}
          >
            <option value="">Any</option>
            {POSITIONS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Tribe"
            value={adv.tribe ?? ''}
            onChange={(e) => setAdvanced({ tribe: e.target.value || undefined })}
          >
            <option value="">Any</option>
            {SUGGESTIONS.tribes.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </SelectField>
          <div className="grid grid-cols-2 gap-3">
            <HeightSelect
              label="Height from"
              value={adv.heightMin}
              units={units}
              onChange={(v) => setAdvanced({ heightMin: v })}
            />
            <HeightSelect label="Height to" value={adv.heightMax} units={units} onChange={(v) => setAdvanced({ heightMax: v })} />
          </div>
        </fieldset>

        <div className="sticky bottom-0 -mx-5 flex gap-3 border-t border-line bg-white px-5 pt-3 pb-1">
          <Button
            variant="secondary"
            className="flex-1"
            onClick={() =>
              setDraft({ preferences: { ageRange: [MIN_AGE, 50], maxDistance: 50, showMe: 'everyone' }, advanced: {} })
            }
          >
            Reset
          </Button>
          <Button type="submit" className="flex-[2]" loading={saving}>
            Show results
          </Button>
        </div>
      </form>
    </Sheet>
  );
}

function nearestChoice(d: number): number {
  let best = 0;
  MAX_DISTANCE_CHOICES.forEach((c, i) => {
    if (Math.abs(c - d) < Math.abs((MAX_DISTANCE_CHOICES[best] ?? 0) - d)) best = i;
  });
  return best;
}

function Range({
  label,
  value,
  inputs,
}: {
  label: string;
  value: ReactNode;
  inputs: { label: string; min: number; max: number; value: number; valueText?: string; onChange: (v: number) => void }[];
}) {
  const id = useId();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a labelled group of sliders
    <div role="group" aria-labelledby={id} className="flex flex-col gap-2">
      <div className="flex items-baseline justify-between">
        <span id={id} className="text-base font-semibold text-ink">
          {label}
        </span>
        <span className="text-base font-semibold text-primary-strong">{value}</span>
      </div>
      {inputs.map((i) => (
        <input
          key={i.label}
          type="range"
          aria-label={i.label}
          aria-valuetext={i.valueText}
          min={i.min}
          max={i.max}
          value={i.value}
          onChange={(e) => i.onChange(Number(e.target.value))}
          className="h-8 w-full accent-[#d92d45]"
        />
      ))}
    </div>
  );
}

function HeightSelect({
  label,
  value,
  units,
  onChange,
}: {
  label: string;
  value: number | undefined;
  units: 'imperial' | 'metric';
  onChange: (v: number | undefined) => void;
}) {
  return (
    <SelectField
      label={label}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value ? Number(e.target.value) : undefined)}
    >
      <option value="">Any</option>
      {HEIGHTS.map((h) => (
        <option key={h} value={h}>
          {formatHeight(h, units)}
        </option>
      ))}
    </SelectField>
  );
}
