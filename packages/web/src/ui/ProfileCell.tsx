import { DISPLAY_DEFAULTS, type GridCell } from '@fmk/core';
import { memo } from 'react';
import { Link } from 'react-router';
import { Avatar } from './Avatar.tsx';
import { FlameIcon, LockIcon, MoreIcon } from './icons.tsx';
import { LOOK } from './look.ts';
import { VerifiedBadge } from './VerifiedBadge.tsx';

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
        className={`${LOOK.cellPhoto} ${cell.locked ? LOOK.cellPhotoLocked : ''}`}
      />
      {cell.locked ? (
        <span className={LOOK.cellLock}>
          <span className={LOOK.cellLockIcon}>
            <LockIcon width={20} height={20} />
          </span>
          <span className={LOOK.cellLockText}>0 opens left today</span>
        </span>
      ) : null}
      {cell.isOnline ? <span className={LOOK.cellOnline} title="Online" aria-hidden="true" /> : null}
      {cell.rightNow && !cell.locked ? (
        <span className={`${LOOK.cellRightNow} ${onMenu ? 'right-9' : 'right-1.5'}`}>
          <FlameIcon width={14} height={14} />
        </span>
      ) : null}
      <span className={LOOK.cellCaption}>
        <span className={LOOK.cellName}>
          <span className="truncate">{cell.locked ? 'Locked' : `${name}, ${age}`}</span>
          {cell.verified && !cell.locked ? <VerifiedBadge size={15} /> : null}
        </span>
        <span className={LOOK.cellLine}>{cell.rightNow && !cell.locked ? cell.rightNow : (cell.distance ?? 'Nearby')}</span>
      </span>
    </>
  );
  const cls = LOOK.cell;
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
    <div className={LOOK.cellWrap} style={style}>
      {link}
      <button type="button" aria-label={`Options for ${name}`} onClick={() => onMenu(cell)} className={LOOK.cellMenu}>
        <span className={LOOK.cellMenuDot}>
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
