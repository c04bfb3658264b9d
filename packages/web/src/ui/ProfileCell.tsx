import { DISPLAY_DEFAULTS, type GridCell } from '@fmk/core';
import { memo } from 'react';
import { Link } from 'react-router';
import { Avatar } from './Avatar.tsx';
import { FlameIcon, LockIcon, MoreIcon } from './icons.tsx';
import { VerifiedBadge } from './VerifiedBadge.tsx';

const overlay = 'absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/80 via-black/45 to-transparent px-2 pt-6 pb-1.5';

/**
 * One grid cell: photo, name and age (and the verified badge), online dot, rounded distance, the
 * "right now" line.
 * Fixed size (from the virtualised row), image lazy (but the first screen's) with width/height
 * set: no layout shift.
 * A locked cell (today's profile opens are spent and this one would need one) is blurred, says
 * so, and asks for an upgrade.
 */
export const ProfileCell = memo(function ProfileCell({
  cell,
  size,
  onLocked,
  onMenu,
  eager = false,
}: {
  cell: GridCell;
  size: { width: number; height: number };
  onLocked: (cell: GridCell) => void;
  /** His options (report, block): a small button beside the cell's link, not inside it. */
  onMenu?: (cell: GridCell) => void;
  /** On the first screen: load at once with high priority rather than lazily (LCP). */
  eager?: boolean;
}) {
  const name = cell.displayName?.trim() || DISPLAY_DEFAULTS.name;
  const age = cell.age ?? DISPLAY_DEFAULTS.age;
  const body = (
    <>
      <Avatar
        person={cell}
        name={name}
        width={Math.round(size.width)}
        height={Math.round(size.height)}
        loading={eager ? 'eager' : 'lazy'}
        fetchPriority={eager ? 'high' : 'auto'}
        decoding="async"
        draggable={false}
        className={`absolute inset-0 size-full ${cell.locked ? 'scale-110 blur-md brightness-90' : ''}`}
      />
      {cell.locked ? (
        <span className="absolute inset-x-1 top-0 bottom-10 flex flex-col items-center justify-center gap-1.5">
          <span className="flex size-10 items-center justify-center rounded-full bg-white/90 text-ink shadow">
            <LockIcon width={20} height={20} />
          </span>
          <span className="rounded-full bg-white/90 px-2 py-0.5 text-center text-xs leading-tight font-semibold text-ink shadow">
            0 opens left today
          </span>
        </span>
      ) : null}
      {cell.isOnline ? (
        <span
          className="absolute top-1.5 left-1.5 size-3 rounded-full bg-emerald-500 ring-2 ring-white"
          title="Online"
          aria-hidden="true"
        />
      ) : null}
      {cell.rightNow && !cell.locked ? (
        <span
          className={`absolute top-1.5 ${onMenu ? 'right-9' : 'right-1.5'} flex size-6 items-center justify-center rounded-full bg-white/95 text-primary-strong shadow-sm`}
        >
          <FlameIcon width={14} height={14} />
        </span>
      ) : null}
      <span className={overlay}>
        <span className="flex items-center gap-1 text-sm leading-tight font-bold text-white">
          <span className="truncate">{cell.locked ? 'Locked' : `${name}, ${age}`}</span>
          {cell.verified && !cell.locked ? <VerifiedBadge size={15} /> : null}
        </span>
        <span className="block truncate text-xs leading-tight font-medium text-white/90">
          {cell.rightNow && !cell.locked ? cell.rightNow : (cell.distance ?? 'Nearby')}
        </span>
      </span>
    </>
  );
  const cls =
    'relative block overflow-hidden rounded-xl bg-canvas outline-offset-2 focus-visible:outline-3 focus-visible:outline-primary-strong';
  const style = { width: size.width, height: size.height };
  const presence = cell.isOnline ? ', online' : '';
  // He may not share his distance (privacy): then none is said.
  const away = cell.distance ? `, ${cell.distance} away` : '';
  if (cell.locked) {
    return (
      <button
        type="button"
        className={cls}
        style={style}
        aria-label={`Locked profile${away}. No profile opens left today: upgrade to open it.`}
        onClick={() => onLocked(cell)}
      >
        {body}
      </button>
    );
  }
  const link = (
    <Link
      to={`/profile/${encodeURIComponent(cell.uid)}`}
      className={cls}
      style={style}
      aria-label={`${name}, ${age}${cell.verified ? ', verified' : ''}${away}${presence}${cell.rightNow ? `. Right now: ${cell.rightNow}` : ''}`}
    >
      {body}
    </Link>
  );
  if (!onMenu) return link;
  // A sibling of the link (a button inside a link is not allowed), over its top right corner.
  return (
    <div className="relative shrink-0" style={style}>
      {link}
      <button
        type="button"
        aria-label={`Options for ${name}`}
        onClick={() => onMenu(cell)}
        className="absolute top-0 right-0 flex size-9 items-center justify-center rounded-tr-xl outline-offset-[-3px] focus-visible:outline-3 focus-visible:outline-white"
      >
        <span className="flex size-6 items-center justify-center rounded-full bg-black/45 text-white">
          <MoreIcon width={16} height={16} />
        </span>
      </button>
    </div>
  );
});

/** The cell's shape while a page loads. */
export function ProfileCellSkeleton({ size }: { size: { width: number; height: number } }) {
  return <div className="animate-pulse rounded-xl bg-line/60" style={{ width: size.width, height: size.height }} />;
}
