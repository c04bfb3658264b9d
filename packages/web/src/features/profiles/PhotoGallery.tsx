import type { ProfilePhoto } from '@fmk/core';
import { type KeyboardEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { HIDDEN_PHOTO_URL } from '../../ui/photoSrc.ts';

type Slide = { id: string; url: string | null; hidden?: string | undefined; blurred?: boolean | undefined };

/**
 * A swipeable gallery: CSS scroll-snap does the swiping; dots and the arrow keys move it too.
 * With no photos it shows the placeholder passed in. A photo the viewer's content filter hides
 * comes without an address and shows a notice in its place; one it blurs is revealed by a tap.
 */
export function PhotoGallery({
  photos,
  name,
  placeholder,
}: {
  photos: readonly Pick<ProfilePhoto, 'id' | 'url' | 'hidden' | 'blurred'>[];
  name: string;
  placeholder: string;
}) {
  const track = useRef<HTMLUListElement>(null);
  const [index, setIndex] = useState(0);
  const slides: Slide[] = photos.length ? [...photos] : [{ id: 'placeholder', url: placeholder }];
  const count = slides.length;

  const goTo = (i: number) => {
    const next = Math.max(0, Math.min(count - 1, i));
    setIndex(next);
    const el = track.current;
    el?.scrollTo?.({ left: next * el.clientWidth, behavior: 'smooth' });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      goTo(index + 1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      goTo(index - 1);
    }
  };

  return (
    <section aria-roledescription="carousel" aria-label={`Photos of ${name}`} className="relative bg-canvas">
      <ul
        ref={track}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroller takes the arrow keys
        tabIndex={0}
        onKeyDown={onKeyDown}
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.clientWidth > 0) setIndex(Math.round(el.scrollLeft / el.clientWidth));
        }}
        aria-label={count > 1 ? 'Photos: swipe or use the arrow keys' : 'Photo'}
        className="flex aspect-[4/5] w-full snap-x snap-mandatory overflow-x-auto overscroll-x-contain [scrollbar-width:none] focus-visible:outline-offset-[-3px] [&::-webkit-scrollbar]:hidden"
      >
        {slides.map((s, i) => (
          <li key={s.id} aria-roledescription="slide" className="relative h-full w-full shrink-0 snap-center">
            <GallerySlide
              slide={s}
              alt={photos.length ? `${name}, photo ${i + 1} of ${count}` : `${name} has no photos yet`}
              eager={i === 0}
            />
          </li>
        ))}
      </ul>
      {count > 1 ? (
        <div className="pointer-events-none absolute inset-x-0 top-1 flex justify-center gap-1.5 px-3">
          {slides.map((s, i) => (
            <button
              key={s.id}
              type="button"
              aria-label={`Show photo ${i + 1} of ${count}`}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => goTo(i)}
              className="pointer-events-auto flex-1 py-2"
            >
              <span
                className={`block h-1 rounded-full shadow-sm transition-colors ${i === index ? 'bg-white' : 'bg-white/50'}`}
              />
            </button>
          ))}
        </div>
      ) : null}
    </section>
  );
}

function GallerySlide({ slide, alt, eager }: { slide: Slide; alt: string; eager: boolean }) {
  const [revealed, setRevealed] = useState(false);
  if (slide.hidden || slide.url === null)
    return (
      <div
        className="flex size-full flex-col items-center justify-center gap-3 px-8 text-center"
        role="img"
        aria-label={`${alt}: hidden`}
      >
        <img src={HIDDEN_PHOTO_URL} alt="" width={80} height={100} className="rounded-2xl" />
        <p className="text-base font-semibold text-ink">Photo hidden</p>
        <p className="text-sm text-muted">It may be explicit, and your content settings hide such photos.</p>
        <Link
          to="/settings/safety"
          className="min-h-10 rounded-full border border-line bg-white px-4 py-2 text-sm font-semibold text-ink"
        >
          Content settings
        </Link>
      </div>
    );
  const image = (
    <img
      src={slide.url}
      alt={alt}
      className={`size-full object-cover ${slide.blurred && !revealed ? 'scale-110 blur-2xl' : ''}`}
      draggable={false}
      loading={eager ? 'eager' : 'lazy'}
    />
  );
  if (!slide.blurred || revealed) return image;
  return (
    <button
      type="button"
      onClick={() => setRevealed(true)}
      aria-label="Sensitive photo, blurred. Tap to reveal"
      className="relative block size-full overflow-hidden"
    >
      {image}
      <span className="absolute inset-0 flex flex-col items-center justify-center gap-1 bg-ink/40 px-4 text-center text-white">
        <span className="text-base font-bold">Sensitive photo</span>
        <span className="text-sm font-semibold">Tap to reveal</span>
      </span>
    </button>
  );
}
