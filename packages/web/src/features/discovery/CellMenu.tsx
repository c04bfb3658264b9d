import { DISPLAY_DEFAULTS, type GridCell } from '@fmk/core';
import { useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { BlockIcon, FlagIcon } from '../../ui/icons.tsx';
import { Sheet } from '../../ui/Sheet.tsx';
import { BlockSheet } from '../safety/BlockSheet.tsx';
import { ReportSheet } from '../safety/ReportSheet.tsx';

/**
 * A grid cell's options: report him (the same sheet as on his profile, with its 'Also block
 * him') or block him, without opening his profile (which may cost a profile open). Both stay on
 * the grid, which drops him once he is blocked.
 */
export function CellMenu({ cell, onClose }: { cell: GridCell; onClose: () => void }) {
  const [step, setStep] = useState<'menu' | 'report' | 'block'>('menu');
  const name = cell.displayName?.trim() || DISPLAY_DEFAULTS.name;
  if (step === 'report') return <ReportSheet open onClose={onClose} userId={cell.uid} name={name} leaveTo={null} />;
  if (step === 'block') return <BlockSheet open onClose={onClose} userId={cell.uid} name={name} leaveTo={null} />;
  return (
    <Sheet open onClose={onClose} title={name}>
      <div className="flex flex-col gap-3 pb-2">
        <Button variant="secondary" block onClick={() => setStep('report')}>
          <FlagIcon width={20} height={20} aria-hidden="true" /> Report {name}
        </Button>
        <Button variant="danger" block onClick={() => setStep('block')}>
          <BlockIcon width={20} height={20} aria-hidden="true" /> Block {name}
        </Button>
      </div>
    </Sheet>
  );
}
