import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as avataaars from '@dicebear/avataaars';
import { createAvatar } from '@dicebear/core';
import { PHOTO_THUMB, PHOTO_WEBP_QUALITY } from '@fmk/core';
import sharp from 'sharp';
import { REPO_ROOT } from './platform/config.ts';
import { mulberry32 } from './seed-random.ts';

/**
 * Portraits for the demo world: illustrated men (DiceBear's Avataaars style,
 * drawn locally, no network) in a small scene, rendered from SVG to WebP with sharp. A face is a
 * fixed set of traits (skin, hair, beard, brows, glasses); its variants are the same face in
 * other clothes, with another expression, in another scene, so one man's photos look like one
 * man. Everything is a function of the face's number: the same number draws the same pictures.
 *
 * The seed renders each face it needs once and hands the same files to every man who has it, so
 * a world of thousands costs a fixed pool of renders (FACE_COUNT x VARIANTS), not one a photo.
 */

/** Distinct faces. The first FACE_COUNT demo users of a seed all look different. */
export const FACE_COUNT = 120;
/** Differently dressed and placed pictures of one face; a man shows two or three of them. */
export const VARIANTS = 3;
/** A portrait photo, in the grid cell's shape (4:5). */
export const PORTRAIT = { width: 640, height: 800 } as const;

// Avataaars options chosen to draw adult men: short and natural hair, beards, natural skin tones
// and hair colours (none of the style's yellow or orange skins, pink hair, hijabs or long hair).
const SKIN = ['614335', 'ae5d29', 'd08b5b', 'edb98a', 'ffdbb4'] as const;
const TOPS = [
  'shortFlat',
  'shortRound',
  'shortWaved',
  'shortCurly',
  'theCaesar',
  'theCaesarAndSidePart',
  'sides',
  'frizzle',
  'shaggy',
  'dreads01',
  'dreads02',
] as const;
const HAIR = ['2c1b18', '4a312c', '724133', 'a55728', 'b58143', 'd6b370'] as const;
const DARK_HAIR = ['2c1b18', '4a312c', '724133'] as const;
const GREY = ['e8e1e1', 'ecdcbf', '929598'] as const;
const BEARDS = ['beardLight', 'beardLight', 'beardMedium', 'beardMedium', 'beardMajestic', 'moustacheFancy'] as const;
const BROWS = ['defaultNatural', 'flatNatural', 'raisedExcitedNatural', 'upDownNatural', 'defaultNatural'] as const;
const GLASSES = ['prescription01', 'prescription02', 'round'] as const;
const CLOTHES = [
  'blazerAndShirt',
  'blazerAndSweater',
  'collarAndSweater',
  'graphicShirt',
  'hoodie',
  'shirtCrewNeck',
  'shirtVNeck',
] as const;
const CLOTHES_COLOURS = [
  '262e33',
  '3c4f5c',
  '25557c',
  '5199e4',
  '65c9ff',
  'b1e2ff',
  'a7ffc4',
  'e6e6e6',
  '929598',
  'ff5c5c',
  'ffffff',
] as const;
const GRAPHICS = ['bear', 'deer', 'diamond', 'pizza', 'resist', 'skullOutline', 'hola'] as const;
const EYES = ['default', 'happy', 'squint', 'default', 'wink'] as const;
const MOUTHS = ['smile', 'default', 'twinkle', 'smile', 'serious'] as const;

/** The traits that make a face: the same in every variant. */
export interface Face {
  index: number;
  skin: string;
  /** null: bald. */
  top: string | null;
  hairColour: string;
  beard: string | null;
  beardColour: string;
  brows: string;
  glasses: string | null;
  /** Grey or silver hair: given to the older men of the world. */
  mature: boolean;
}

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

/** Face number `index` (0 ≤ index < FACE_COUNT). One face in six is mature (grey hair). */
export function faceOf(index: number): Face {
  if (!Number.isInteger(index) || index < 0 || index >= FACE_COUNT) throw new RangeError(`No face ${index}`);
  const rnd = mulberry32(0x5eed_face + index * 7919);
  const mature = index % 6 === 5;
  const skin = SKIN[index % SKIN.length]!;
  // Blond and light brown only where they look natural: not on the two darkest skins.
  const hairColour = mature ? pick(rnd, GREY) : pick(rnd, SKIN.indexOf(skin as (typeof SKIN)[number]) < 2 ? DARK_HAIR : HAIR);
  const bald = rnd() < (mature ? 0.3 : 0.07);
  const bearded = rnd() < (mature ? 0.8 : 0.7);
  return {
    index,
    skin,
    top: bald ? null : pick(rnd, TOPS),
    hairColour,
    beard: bearded ? pick(rnd, BEARDS) : null,
    beardColour: mature ? pick(rnd, GREY) : rnd() < 0.8 ? hairColour : pick(rnd, DARK_HAIR),
    brows: pick(rnd, BROWS),
    glasses: rnd() < 0.22 ? pick(rnd, GLASSES) : null,
    mature,
  };
}

// Scenes behind a man: each variant of a face stands in another one.
type Scene = (rnd: () => number) => string;

// Scenes are drawn on an 800 x 1000 canvas, rendered at PORTRAIT's size.
const W = 800;
const H = 1000;
const gradient = (id: string, top: string, bottom: string) =>
  `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#${top}"/><stop offset="1" stop-color="#${bottom}"/></linearGradient>`;

const SCENES: Record<string, Scene> = {
  studio: (rnd) => {
    const [a, b] = pick(rnd, [
      ['e9e4f7', 'c9c1e8'],
      ['f5e6da', 'e3c6ae'],
      ['dde9f2', 'b7cde0'],
      ['e3f0e6', 'bcd9c4'],
      ['f2dfe4', 'dcb5c1'],
    ] as const);
    return `<defs><radialGradient id="g" cx="0.5" cy="0.38" r="0.75"><stop offset="0" stop-color="#${a}"/><stop offset="1" stop-color="#${b}"/></radialGradient></defs><rect width="${W}" height="${H}" fill="url(#g)"/>`;
  },
  sunset: (rnd) => {
    const sunX = 180 + Math.floor(rnd() * 440);
    return `<defs>${gradient('g', 'ffb88c', 'de6262')}</defs><rect width="${W}" height="${H}" fill="url(#g)"/><circle cx="${sunX}" cy="300" r="150" fill="#ffe29f" opacity="0.85"/><rect y="640" width="${W}" height="${H - 640}" fill="#b24a5a" opacity="0.55"/>`;
  },
  city: (rnd) => {
    let skyline = '';
    for (let x = -20; x < W; ) {
      const w = 70 + Math.floor(rnd() * 90);
      const h = 220 + Math.floor(rnd() * 380);
      skyline += `<rect x="${x}" y="${H - h}" width="${w - 8}" height="${h}" fill="#2a2f5b"/>`;
      for (let wy = H - h + 24; wy < H - 20; wy += 44)
        for (let wx = x + 14; wx < x + w - 26; wx += 28)
          if (rnd() < 0.45) skyline += `<rect x="${wx}" y="${wy}" width="12" height="18" fill="#ffd66b" opacity="0.8"/>`;
      x += w;
    }
    return `<defs>${gradient('g', '141a3a', '5a4a8a')}</defs><rect width="${W}" height="${H}" fill="url(#g)"/><circle cx="640" cy="150" r="46" fill="#f4f1de" opacity="0.9"/>${skyline}`;
  },
  beach: (rnd) => {
    const sky = pick(rnd, [
      ['7ec8f2', 'cdeefc'],
      ['8fd3fe', 'e0f7ff'],
    ] as const);
    return `<defs>${gradient('g', sky[0], sky[1])}</defs><rect width="${W}" height="${H}" fill="url(#g)"/><circle cx="${120 + Math.floor(rnd() * 160)}" cy="170" r="70" fill="#fff6c7"/><rect y="560" width="${W}" height="160" fill="#2f9fd0"/><rect y="560" width="${W}" height="10" fill="#ffffff" opacity="0.5"/><rect y="720" width="${W}" height="${H - 720}" fill="#f3d9a4"/>`;
  },
  park: (rnd) => {
    let trees = '';
    for (let i = 0; i < 5; i++) {
      const x = Math.floor(rnd() * W);
      const r = 70 + Math.floor(rnd() * 60);
      trees += `<rect x="${x - 10}" y="${560 - r}" width="20" height="${r + 40}" fill="#6b4f3a"/><circle cx="${x}" cy="${540 - r}" r="${r}" fill="#4f9a5a"/>`;
    }
    return `<defs>${gradient('g', 'bfe6ff', 'eaf7ff')}</defs><rect width="${W}" height="${H}" fill="url(#g)"/>${trees}<rect y="600" width="${W}" height="${H - 600}" fill="#7cc46f"/>`;
  },
};
const SCENE_NAMES = Object.keys(SCENES);

/** How one variant of a face is dressed and placed. */
export interface Look {
  scene: string;
  clothing: (typeof CLOTHES)[number];
  clothesColour: string;
  graphic: string;
  eyes: string;
  mouth: string;
  /** Sunglasses, outdoors: the seed never makes such a photo a man's first (the grid's). */
  sunglasses: boolean;
  /** The avatar's box: its size and left edge on the 800 x 1000 canvas. */
  size: number;
  x: number;
}

/** Variant `variant` (0 ≤ variant < VARIANTS) of a face: other clothes, expression and scene. */
export function lookOf(face: Face, variant: number): Look {
  if (!Number.isInteger(variant) || variant < 0 || variant >= VARIANTS) throw new RangeError(`No variant ${variant}`);
  const rnd = mulberry32(0xc0ffee + face.index * 131 + variant * 7);
  // Each face's variants stand in different scenes, starting from one of its own.
  const scene = SCENE_NAMES[(face.index + variant * 2) % SCENE_NAMES.length]!;
  const size = 960 + Math.floor(rnd() * 100);
  return {
    scene,
    clothing: pick(rnd, CLOTHES),
    clothesColour: pick(rnd, CLOTHES_COLOURS),
    graphic: pick(rnd, GRAPHICS),
    eyes: pick(rnd, EYES),
    mouth: pick(rnd, MOUTHS),
    sunglasses: !face.glasses && (scene === 'beach' || scene === 'sunset') && rnd() < 0.45,
    size,
    x: Math.round((W - size) / 2 + (rnd() - 0.5) * 80),
  };
}

/** The SVG of variant `variant` of a face: the man, dressed, in a scene. */
export function portraitSvg(face: Face, variant: number): string {
  const look = lookOf(face, variant);
  const avatar = createAvatar(avataaars, {
    seed: `face-${face.index}-${variant}`,
    skinColor: [face.skin],
    top: face.top ? [face.top as 'shortFlat'] : [],
    topProbability: face.top ? 100 : 0,
    hairColor: [face.hairColour],
    facialHair: face.beard ? [face.beard as 'beardLight'] : [],
    facialHairProbability: face.beard ? 100 : 0,
    facialHairColor: [face.beardColour],
    eyebrows: [face.brows as 'defaultNatural'],
    accessories: face.glasses ? [face.glasses as 'round'] : look.sunglasses ? ['wayfarers'] : [],
    accessoriesProbability: face.glasses || look.sunglasses ? 100 : 0,
    accessoriesColor: ['262e33'],
    clothing: [look.clothing],
    clothesColor: [look.clothesColour],
    clothingGraphic: [look.graphic as 'bear'],
    eyes: [look.eyes as 'default'],
    mouth: [look.mouth as 'smile'],
    hatColor: ['262e33'],
  }).toString();
  // The avatar's 280 x 280 box, scaled up and set on the bottom edge: head and shoulders. Its
  // mask only clips to that box, which the canvas's edges do here: without it the raster takes
  // a third less time (librsvg draws a mask off screen).
  const y = H - look.size + Math.round(look.size * 0.06);
  const placed = avatar
    .replace(/<mask id="viewboxMask">.*?<\/mask>/, '')
    .replace('<g mask="url(#viewboxMask)">', '<g>')
    .replace('<svg ', `<svg x="${look.x}" y="${y}" width="${look.size}" height="${look.size}" `);
  const backdrop = SCENES[look.scene]!(mulberry32(0xbac0 + face.index * 131 + variant * 7));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PORTRAIT.width}" height="${PORTRAIT.height}" viewBox="0 0 ${W} ${H}">${backdrop}${placed}</svg>`;
}

export interface RenderedPortrait {
  /** The photo, WebP with no metadata, PORTRAIT in size. */
  photo: Buffer;
  /** Its grid thumbnail (PHOTO_THUMB, the shape of the photo: nothing to crop). */
  thumbnail: Buffer;
  width: number;
  height: number;
}

/** What decides the files besides the SVG: a change here renders the cached portraits anew. */
const ENCODING = `webp q${PHOTO_WEBP_QUALITY} e2; thumb ${PHOTO_THUMB.width}x${PHOTO_THUMB.height} q${PHOTO_THUMB.quality}`;

/**
 * Renders a portrait: the SVG rasterised once, then the photo and its thumbnail encoded from the
 * pixels. WebP with no EXIF or other metadata (sharp writes none unless asked).
 */
export async function renderPortrait(svg: string): Promise<RenderedPortrait> {
  const { data, info } = await sharp(Buffer.from(svg))
    .flatten({ background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  // effort 2: a pool of hundreds is rendered per seed; the default effort doubles the time for ~1% smaller files.
  const [photo, thumbnail] = await Promise.all([
    sharp(data, raw).webp({ quality: PHOTO_WEBP_QUALITY, effort: 2 }).toBuffer(),
    sharp(data, raw)
      .resize({ width: PHOTO_THUMB.width, height: PHOTO_THUMB.height, fit: 'cover' })
      .webp({ quality: PHOTO_THUMB.quality, effort: 2 })
      .toBuffer(),
  ]);
  return { photo, thumbnail, width: info.width, height: info.height };
}

/** libvips uses the cores it has for each image; a few images at once keep them busy. */
const RENDERS_AT_ONCE = 4;

/** Where rendered portraits are kept between seeds (as Vite keeps its cache): node_modules/.cache. */
export const DEFAULT_PORTRAIT_CACHE = path.join(REPO_ROOT, 'node_modules', '.cache', 'fmk-seed-portraits');

/**
 * Renders each (face, variant) once however many ask for it at the same moment, and keeps the
 * files in a cache folder named by the hash of what made them (SVG and encoding), so a later seed,
 * into this data folder or another, reads them instead of rendering again. A cache that cannot be
 * read or written is only slower: the portrait is rendered.
 */
export class PortraitPool {
  private readonly made = new Map<string, Promise<RenderedPortrait>>();
  /** How many portraits this pool rendered (the rest came from the cache). */
  rendered = 0;
  /** Renders under way and waiting: a few at a time (each holds a raster of ~1.5 MB). */
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly cacheDir: string | null = DEFAULT_PORTRAIT_CACHE) {}

  get(face: number, variant: number): Promise<RenderedPortrait> {
    const key = `${face}/${variant}`;
    let p = this.made.get(key);
    if (!p) {
      p = this.load(portraitSvg(faceOf(face), variant));
      this.made.set(key, p);
    }
    return p;
  }

  private async limited<T>(f: () => Promise<T>): Promise<T> {
    // A finished render hands its place to the next one waiting, or gives it up.
    if (this.running >= RENDERS_AT_ONCE) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await f();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  private async load(svg: string): Promise<RenderedPortrait> {
    const name = createHash('sha256').update(ENCODING).update('\n').update(svg).digest('hex').slice(0, 32);
    const files = this.cacheDir
      ? { photo: path.join(this.cacheDir, `${name}.webp`), thumb: path.join(this.cacheDir, `${name}.t.webp`) }
      : null;
    if (files) {
      try {
        const [photo, thumbnail] = await Promise.all([readFile(files.photo), readFile(files.thumb)]);
        return { photo, thumbnail, width: PORTRAIT.width, height: PORTRAIT.height };
      } catch {
        // Not cached yet (or unreadable): render it.
      }
    }
    const r = await this.limited(() => renderPortrait(svg));
    this.rendered += 1;
    if (files) {
      try {
        await mkdir(path.dirname(files.photo), { recursive: true });
        // Written under temporary names and renamed: a concurrent seed never reads half a file.
        for (const [file, data] of [
          [files.thumb, r.thumbnail],
          [files.photo, r.photo],
        ] as const) {
          const temp = `${file}.${process.pid}.tmp`;
          await writeFile(temp, data);
          await rename(temp, file);
        }
      } catch {
        // A read-only cache: the next seed renders again.
      }
    }
    return r;
  }
}

/**
 * Renders every portrait the seed can use into the cache (those already there are read, not
 * redone). The test runs call it once before their suites, so that no single test pays for
 * rendering on a machine whose cache is empty (a fresh clone, CI).
 */
export async function warmPortraitCache(cacheDir: string = DEFAULT_PORTRAIT_CACHE): Promise<{ rendered: number }> {
  const pool = new PortraitPool(cacheDir);
  const all: Promise<RenderedPortrait>[] = [];
  for (let face = 0; face < FACE_COUNT; face++)
    for (let variant = 0; variant < VARIANTS; variant++) all.push(pool.get(face, variant));
  await Promise.all(all);
  return { rendered: pool.rendered };
}
