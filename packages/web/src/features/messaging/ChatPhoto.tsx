import { chatPhotoView } from '@fmk/core';
import { useState } from 'react';
import { call } from '../../api/call.ts';
import { useMySettingsQuery } from '../../shared/settings.ts';
import { Spinner } from '../../ui/Spinner.tsx';

const img = 'max-h-72 w-60 rounded-[1.25rem] object-cover';

/**
 * A photo in a chat. One he received that the model marked sensitive is blurred until he taps
 * (blurSensitiveImages) or hidden behind a notice (hideExplicitContent; strict mode also from a
 * lower score), as his content filtering says (core chatPhotoView). Until his settings load, a sensitive photo stays blurred.
 * The server sends such a photo without its URL (`url` null): the tap asks for one
 * (GET /messages/:id/photo-url), so a photo he did not choose to see never reaches his phone.
 */
export function ChatPhoto({
  url,
  messageId,
  mine,
  sensitive,
  nudity,
}: {
  url: string | null;
  messageId?: string | undefined;
  mine: boolean;
  sensitive: boolean;
  /** The model's score, for his strict mode (core strictlyHidden). */
  nudity?: number | undefined;
}) {
  const settings = useMySettingsQuery();
  const [revealed, setRevealed] = useState<string | null>(null);
  const [fetching, setFetching] = useState<'idle' | 'loading' | 'error'>('idle');
  const alt = mine ? 'Your sent picture' : 'Picture he sent';
  const filtering = settings.data?.safety.contentFiltering;
  const decided = mine ? 'show' : filtering ? chatPhotoView(filtering, sensitive, nudity ?? null) : sensitive ? 'blur' : 'show';
  // A withheld photo waits for his tap even where his settings (changed since) would show it.
  const view = url === null && decided === 'show' ? 'blur' : decided;
  const shown = revealed ?? (view === 'show' ? url : null);
  if (shown) return <img src={shown} alt={alt} width={240} height={240} loading="lazy" className={img} />;

  const reveal = async () => {
    if (url) return setRevealed(url);
    if (!messageId) return;
    setFetching('loading');
    try {
      setRevealed((await call('GET /messages/:id/photo-url', { params: { id: messageId } })).url);
    } catch {
      setFetching('error');
    }
  };
  if (fetching === 'loading')
    return (
      <div className="flex h-40 w-60 items-center justify-center rounded-[1.25rem] bg-white">
        <Spinner size={24} label="Loading photo" />
      </div>
    );
  if (view === 'hide' || fetching === 'error')
    return (
      <div className="flex w-60 flex-col gap-2 rounded-[1.25rem] bg-white px-4 py-3 text-ink">
        <p className="text-sm font-semibold">{fetching === 'error' ? "Couldn't load the photo" : 'Photo hidden'}</p>
        <p className="text-sm text-muted">
          {fetching === 'error'
            ? 'Check your connection and try again.'
            : 'It may be explicit, and your content settings hide such photos.'}
        </p>
        <button
          type="button"
          onClick={() => void reveal()}
          className="min-h-10 self-start rounded-full border border-line px-4 text-sm font-semibold text-ink hover:bg-canvas"
        >
          {fetching === 'error' ? 'Try again' : 'Show photo'}
        </button>
      </div>
    );
  return (
    <button
      type="button"
      onClick={() => void reveal()}
      aria-label="Sensitive photo, blurred. Tap to reveal"
      className="relative block overflow-hidden rounded-[1.25rem]"
    >
      {url ? (
        <img src={url} alt="" width={240} height={240} loading="lazy" className={`${img} scale-110 blur-2xl`} />
      ) : (
        <span className={`${img} block h-40 bg-ink/60`} />
      )}
      <span className="absolute inset-0 flex flex-col items-center justify-center gap-1 bg-ink/40 px-4 text-center text-white">
        <span className="text-sm font-bold">Sensitive photo</span>
        <span className="text-xs font-semibold">Tap to reveal</span>
      </span>
    </button>
  );
}
