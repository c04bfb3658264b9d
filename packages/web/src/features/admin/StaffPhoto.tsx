import { useEffect, useState } from 'react';
import { adminKeys, useStaffQuery } from './queries.ts';
import { staffBlob } from './session.ts';

/**
 * A picture served only with the staff token (a reported chat photo, a report's screenshot): an
 * <img> cannot send the token, so it is fetched with it and shown from an object URL.
 */
export function StaffPhoto({ path, alt, className }: { path: string; alt: string; className?: string }) {
  const q = useStaffQuery(adminKeys.blob(path), () => staffBlob(path));
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!q.data || typeof URL.createObjectURL !== 'function') return;
    const url = URL.createObjectURL(q.data);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [q.data]);
  if (q.isError)
    return <span className="block rounded-lg bg-canvas p-4 text-center text-sm text-muted">The photo could not be loaded.</span>;
  if (!src) return <span className="block rounded-lg bg-canvas p-4 text-center text-sm text-muted">Loading the photo…</span>;
  return <img src={src} alt={alt} className={className} />;
}

/** A reported message as it was: its text, or its photo (served to staff only because a report holds it). */
export function EvidenceContent({ m }: { m: { type: string; content: string; photoId?: string | null | undefined } }) {
  if (m.type !== 'photo') return <>{m.content}</>;
  return (
    <span className="flex flex-col items-start gap-1">
      {m.photoId ? (
        <StaffPhoto
          path={`/admin/messages/photos/${m.photoId}`}
          alt="Reported chat photo"
          className="max-h-48 w-auto rounded-lg"
        />
      ) : (
        <span className="text-muted">Photo (removed)</span>
      )}
      {m.content ? <span>{m.content}</span> : null}
    </span>
  );
}
