import type { Photo } from '@fmk/core';
import { type KeyboardEvent, useRef, useState } from 'react';

/**
 * A swipeable gallery: CSS scroll-snap does the swiping; dots and the arrow keys move it too.
 * With no photos it shows the placeholder passed in.
 */
export function PhotoGallery({ photos, name, placeholder }: { photos: readonly Photo[]; name: string; placeholder: string }) {
  const track = useRef<HTMLUListElement>(null);
  const [index, setIndex] = useState(0);
  const slides = photos.length ? photos.map((p) => ({ id: p.id, url: p.url })) : [{ id: 'placeholder', url: placeholder }];
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
          <li key={s.id} aria-roledescription="slide" className="h-full w-full shrink-0 snap-center">
            <img
              src={s.url}
              alt={photos.length ? `${name}, photo ${i + 1} of ${count}` : `${name} has no photos yet`}
              className="size-full object-cover"
              draggable={false}
              loading={i === 0 ? 'eager' : 'lazy'}
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
