import type { ModeVisibility } from '@fmk/core';
import { Switch } from '../../ui/Switch.tsx';
import { Card } from './EditCard.tsx';

const VISIBILITY: { key: keyof ModeVisibility; label: string; hint: string }[] = [
  { key: 'showInDating', label: 'Show me in Dating', hint: 'People in Dating mode can find you' },
  { key: 'showInNow', label: 'Show me in Hookup', hint: 'People in Hookup mode can find you' },
  { key: 'datingVisibleToAll', label: 'Dating profile visible to everyone', hint: 'Off: only your matches see it' },
  { key: 'nowVisibleToAll', label: 'Hookup profile visible to everyone', hint: 'Off: only your matches see it' },
  { key: 'hideFromMatches', label: 'Hide from my matches', hint: 'Matches will not see your profile' },
];

export function VisibilityCard({ value, onChange }: { value: ModeVisibility; onChange: (v: ModeVisibility) => void }) {
  return (
    <Card title="Visibility" lead="Who sees which side of you.">
      <div className="flex flex-col divide-y divide-line">
        {VISIBILITY.map((v) => (
          <Switch
            key={v.key}
            label={v.label}
            hint={v.hint}
            checked={value[v.key]}
            onChange={(on) => onChange({ ...value, [v.key]: on })}
          />
        ))}
      </div>
    </Card>
  );
}
