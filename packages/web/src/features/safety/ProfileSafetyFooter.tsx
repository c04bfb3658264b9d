import { useState } from 'react';
import { Link } from 'react-router';
import { BlockSheet } from './BlockSheet.tsx';
import { ReportSheet } from './ReportSheet.tsx';

const quiet =
  'flex min-h-10 items-center rounded-full px-4 text-sm font-semibold text-muted underline-offset-2 hover:text-primary-strong hover:underline';

/** The quiet ways out at the foot of someone else's profile: report, block, and the Safety centre. */
export function ProfileSafetyFooter({ userId, name }: { userId: string; name: string }) {
  const [open, setOpen] = useState<'block' | 'report' | null>(null);
  return (
    <nav aria-label="Safety" className="flex flex-wrap justify-center gap-1 px-4 pt-2 pb-6">
      <button type="button" onClick={() => setOpen('report')} className={quiet}>
        Report {name}
      </button>
      <button type="button" onClick={() => setOpen('block')} className={quiet}>
        Block {name}
      </button>
      <Link to="/safety" className={quiet}>
        Safety centre
      </Link>
      <BlockSheet open={open === 'block'} onClose={() => setOpen(null)} userId={userId} name={name} />
      <ReportSheet open={open === 'report'} onClose={() => setOpen(null)} userId={userId} name={name} />
    </nav>
  );
}
