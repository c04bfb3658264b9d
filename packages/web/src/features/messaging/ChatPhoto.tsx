import { chatPhotoView } from '@fmk/core';
import { useState } from 'react';
import { useMySettingsQuery } from '../../shared/settings.ts';

const img = 'max-h-72 w-60 rounded-[1.25rem] object-cover';

/**
 * A photo in a chat. One he received that the model marked sensitive is blurred until he taps
 * (blurSensitiveImages) or hidden behind a notice (hideExplicitContent; strict mode also from a
 * lower score), as his content filtering says (core chatPhotoView). Until his settings load, a sensitive photo stays blurred.
 */
export function ChatPhoto({
  url,
  mine,
  sensitive,
  nudity,
}: {
  url: string;
  mine: boolean;
  sensitive: boolean;
  /** The model's score, for his strict mode (core strictlyHidden). */
  nudity?: number | undefined;
}) {
  const settings = useMySettingsQuery();
  const [revealed, setRevealed] = useState(false);
  const alt = mine ? 'Your sent picture' : 'Picture he sent';
  const filtering = settings.data?.safety.contentFiltering;
  const view = mine ? 'show' : filtering ? chatPhotoView(filtering, sensitive, nudity ?? null) : sensitive ? 'blur' : 'show';
  if (view === 'show' || revealed) return <img src={url} alt={alt} width={240} height={240} loading="lazy" className={img} />;
  if (view === 'hide')
    return (
      <div className="flex w-60 flex-col gap-2 rounded-[1.25rem] bg-white px-4 py-3 text-ink">
        <p className="text-sm font-semibold">Photo hidden</p>
        <p className="text-sm text-muted">It may be explicit, and your content settings hide such photos.</p>
        <button
          type="button"
          onClick={() => setRevealed(true)}
          className="min-h-10 self-start rounded-full border border-line px-4 text-sm font-semibold text-ink hover:bg-canvas"
        >
          Show photo
        </button>
      </div>
    );
  return (
    <button
      type="button"
      onClick={() => setRevealed(true)}
      aria-label="Sensitive photo, blurred. Tap to reveal"
      className="relative block overflow-hidden rounded-[1.25rem]"
    >
      <img src={url} alt="" width={240} height={240} loading="lazy" className={`${img} scale-110 blur-2xl`} />
      <span className="absolute inset-0 flex flex-col items-center justify-center gap-1 bg-ink/40 px-4 text-center text-white">
        <span className="text-sm font-bold">Sensitive photo</span>
        <span className="text-xs font-semibold">Tap to reveal</span>
      </span>
    </button>
  );
}
