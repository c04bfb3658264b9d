import { type AppMode, brandLabel, DISPLAY_DEFAULTS, type GridCell, type GridPage, UNLIMITED } from '@fmk/core';
import { cellSizeFor, FIRST_SCREEN_ID, GRID, LOOK } from './ui/look.ts';
import { photoSrc } from './ui/photoSrc.ts';

/**
 * The grid's first screen as plain DOM, painted by the early script (early.ts) as soon as the
 * grid's first page has arrived, before the app's JavaScript has even downloaded (README "Web
 * budgets"): the shell's header, the email reminder, the title row, today's opens and the first
 * rows of cells, with the same elements, classes (ui/look.ts) and sizes as the app's, so that
 * nothing moves when the app's own grid replaces it (shared/firstScreen.ts).
 *
 * A picture only: hidden from assistive technology and inert (the real list, with its links and
 * names, arrives with the app), and what is only the app's (the mode switch, the title row's
 * buttons) is left out, its room kept. Bundled into the early script: it imports no React.
 */
/** Rows whose photos load at once with high priority, as the app's grid does (VirtualGrid). */
export const EAGER_ROWS = 4;

export interface FirstScreen {
  page: Pick<GridPage, 'clickableLimit' | 'opensLeft'>;
  /** The cells in the grid's order, without those the app hides (killed this session). */
  items: readonly GridCell[];
  appMode: AppMode | undefined;
  /** The address the 'Confirm your email' reminder names, when the app shows it. */
  unconfirmedEmail: string | null;
}

type Attrs = Record<string, string | number | undefined>;

function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  className: string | undefined,
  children: (Node | string | null)[] = [],
  attrs: Attrs = {},
): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  if (className) e.className = className;
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, String(v));
  for (const c of children) if (c !== null) e.append(c);
  return e;
}

/** The app's stroke icons (ui/icons.tsx), as markup: fixed strings, never user input. */
const icon = (size: number, body: string, extra = '') =>
  `<svg viewBox="0 0 24 24" width="${size}" height="${size}" fill="none" stroke="currentColor" stroke-width="${extra || '2'}" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${body}</svg>`;
const LOCK = '<rect x="4" y="11" width="16" height="10" rx="2"></rect><path d="M8 11V7a4 4 0 0 1 8 0v4"></path>';
const FLAME =
  '<path d="M12 22c4 0 7-2.7 7-6.8 0-3.9-2.6-6.4-4.3-8.9-.4 1.9-1.3 3.2-2.7 3.9.2-3-1-5.9-3.5-8.2C8.3 6 5 8.9 5 15.2 5 19.3 8 22 12 22Z"></path><path d="M12 22c-1.7 0-3-1.2-3-3 0-1.9 1.4-3 3-5 1.6 2 3 3.1 3 5 0 1.8-1.3 3-3 3Z"></path>';
const MORE =
  '<circle cx="5" cy="12" r="1.5" fill="currentColor"></circle><circle cx="12" cy="12" r="1.5" fill="currentColor"></circle><circle cx="19" cy="12" r="1.5" fill="currentColor"></circle>';
const CLOSE = '<path d="M18 6 6 18M6 6l12 12"></path>';
/** The verified seal (ui/VerifiedBadge.tsx). */
const SEAL = (size: number) =>
  `<svg viewBox="0 0 24 24" width="${size}" height="${size}" aria-hidden="true" class="shrink-0"><path fill="var(--color-primary-strong)" stroke="#ffffff" stroke-width="1.5" d="M12 1.8l2.4 1.8 3-.2 1 2.8 2.5 1.7-.9 2.9.9 2.9-2.5 1.7-1 2.8-3-.2L12 20l-2.4-1.8-3 .2-1-2.8-2.5-1.7.9-2.9-.9-2.9 2.5-1.7 1-2.8 3 .2z"></path><path d="M8.2 11.2l2.6 2.6 5-5" fill="none" stroke="#ffffff" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"></path></svg>`;

function markup(doc: Document, tag: 'span', className: string | undefined, html: string): HTMLSpanElement {
  const e = el(doc, tag, className);
  e.innerHTML = html;
  return e;
}

/** One cell as ProfileCell draws it (with its options button, as the grid gives one). */
function cell(doc: Document, c: GridCell, size: { width: number; height: number }, eager: boolean): HTMLElement {
  const name = c.displayName?.trim() || DISPLAY_DEFAULTS.name;
  const age = c.age ?? DISPLAY_DEFAULTS.age;
  const photo = photoSrc(c, name);
  // Set as React sets a style (its properties, not the attribute): the same values, to the pixel.
  const sized = <E extends HTMLElement>(e: E): E => {
    e.style.width = `${size.width}px`;
    e.style.height = `${size.height}px`;
    return e;
  };
  const body = [
    el(
      doc,
      'img',
      `object-cover ${photo.blurred ? 'blur-md ' : ' '}${LOOK.cellPhoto} ${c.locked ? LOOK.cellPhotoLocked : ''}`,
      [],
      {
        src: photo.src,
        alt: '',
        width: Math.round(size.width),
        height: Math.round(size.height),
        loading: eager ? 'eager' : 'lazy',
        fetchpriority: eager ? 'high' : 'auto',
        decoding: 'async',
      },
    ),
    c.locked
      ? el(doc, 'span', LOOK.cellLock, [
          markup(doc, 'span', LOOK.cellLockIcon, icon(20, LOCK)),
          el(doc, 'span', LOOK.cellLockText, ['0 opens left today']),
        ])
      : null,
    c.isOnline ? el(doc, 'span', LOOK.cellOnline) : null,
    c.rightNow && !c.locked ? markup(doc, 'span', `${LOOK.cellRightNow} right-9`, icon(14, FLAME)) : null,
    el(doc, 'span', LOOK.cellCaption, [
      el(doc, 'span', LOOK.cellName, [
        el(doc, 'span', 'truncate', [c.locked ? 'Locked' : `${name}, ${age}`]),
        c.verified && !c.locked ? markup(doc, 'span', 'inline-flex shrink-0', SEAL(15)) : null,
      ]),
      el(doc, 'span', LOOK.cellLine, [c.rightNow && !c.locked ? c.rightNow : (c.distance ?? 'Nearby')]),
    ]),
  ];
  if (c.locked) return sized(el(doc, 'button', LOOK.cell, body, { type: 'button' }));
  return sized(
    el(doc, 'div', LOOK.cellWrap, [
      sized(el(doc, 'a', LOOK.cell, body)),
      el(doc, 'button', LOOK.cellMenu, [markup(doc, 'span', LOOK.cellMenuDot, icon(16, MORE))], { type: 'button' }),
    ]),
  );
}

/**
 * Builds the first screen into `doc.body` (over the app's empty root, the height of the window)
 * and returns it with the photos of its first rows; null when there is nothing to show.
 */
export function paintFirstScreen(doc: Document, screen: FirstScreen): { root: HTMLElement; photos: HTMLImageElement[] } | null {
  const { page, items } = screen;
  if (!items.length || !doc.body) return null;
  const grid = el(doc, 'div', LOOK.grid);
  const limited = page.clickableLimit !== UNLIMITED && page.opensLeft !== UNLIMITED;
  const shell = el(doc, 'div', LOOK.shell, [
    el(doc, 'header', LOOK.shellHeader, [el(doc, 'a', LOOK.brand, [brandLabel(screen.appMode)])]),
    el(doc, 'div', undefined, [
      screen.unconfirmedEmail === null
        ? null
        : el(doc, 'section', LOOK.banner, [
            el(doc, 'div', LOOK.bannerText, [
              el(doc, 'p', LOOK.bannerTitle, ['Confirm your email']),
              el(doc, 'p', undefined, [
                'Open the link we sent to ',
                el(doc, 'span', LOOK.bannerEmail, [screen.unconfirmedEmail]),
                '.',
              ]),
            ]),
            el(doc, 'button', LOOK.bannerResend, ['Resend'], { type: 'button' }),
            el(doc, 'button', LOOK.bannerHide, [markup(doc, 'span', undefined, icon(18, CLOSE))], { type: 'button' }),
          ]),
      el(doc, 'div', 'flex flex-col', [
        el(doc, 'div', LOOK.pageHeader, [
          el(doc, 'h1', LOOK.pageTitle, ['Nearby']),
          // The grid's buttons (boost, likes, filters) come with the app; their row's height stays.
          el(doc, 'div', LOOK.pageActions, [el(doc, 'span', 'min-h-10')]),
        ]),
        limited
          ? el(doc, 'p', LOOK.opensLeft, [
              el(doc, 'span', undefined, [
                el(doc, 'strong', 'font-bold', [String(page.opensLeft)]),
                ` of ${page.clickableLimit} profile opens left today`,
              ]),
              page.opensLeft === 0 ? el(doc, 'a', LOOK.opensLeftMore, ['Get more']) : null,
            ])
          : null,
        grid,
      ]),
    ]),
  ]);
  const root = el(doc, 'div', undefined, [shell], {
    id: FIRST_SCREEN_ID,
    'aria-hidden': 'true',
    inert: '',
    style: 'position: absolute; inset: 0 0 auto; height: 100vh; overflow: hidden; z-index: 30; pointer-events: none;',
  });
  doc.getElementById(FIRST_SCREEN_ID)?.remove();
  doc.body.append(root);

  // Sized as the app's grid will be: its box's width, rows down to the bottom of the window.
  const size = cellSizeFor(grid.clientWidth || 390);
  const rowHeight = size.height + GRID.gap;
  const room = (doc.defaultView?.innerHeight ?? 800) - grid.getBoundingClientRect().top;
  const rows = Math.max(1, Math.min(Math.ceil(room / rowHeight), Math.ceil(items.length / GRID.columns)));
  const list = el(doc, 'ul', 'relative m-0 list-none p-0', [], { style: `height: ${rows * rowHeight}px; contain: strict;` });
  for (let r = 0; r < rows; r++) {
    const cells = items.slice(r * GRID.columns, (r + 1) * GRID.columns).map((c) => cell(doc, c, size, r < EAGER_ROWS));
    list.append(
      el(doc, 'li', 'absolute left-0 flex w-full', cells, {
        style: `top: 0px; height: ${rowHeight}px; transform: translateY(${r * rowHeight}px); gap: ${GRID.gap}px; padding-left: ${GRID.padding}px; padding-right: ${GRID.padding}px;`,
      }),
    );
  }
  grid.append(list);
  return { root, photos: [...list.querySelectorAll<HTMLImageElement>('img[loading="eager"]')] };
}
