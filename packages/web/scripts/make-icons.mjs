// Renders the FMK app icons (PWA manifest, favicon, Apple touch icon) from one SVG.
// Run: node packages/web/scripts/make-icons.mjs — the outputs are committed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const pub = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
const out = join(pub, 'icons');
mkdirSync(out, { recursive: true });

/** `inset` is the share of the canvas kept clear on each side (maskable icons need ~10%+). */
const svg = ({ rounded, inset }) => {
  const size = 512;
  const r = rounded ? 112 : 0;
  const fontSize = Math.round(200 * (1 - inset * 2));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <title>FMK</title>
  <rect width="${size}" height="${size}" rx="${r}" fill="#FF4458"/>
  <text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-weight="700" font-size="${fontSize}" fill="#ffffff" letter-spacing="-6">FMK</text>
</svg>`;
};

const render = (source, size, file) =>
  sharp(Buffer.from(source)).resize(size, size).png({ compressionLevel: 9 }).toFile(join(out, file));

const any = svg({ rounded: true, inset: 0.05 });
const full = svg({ rounded: false, inset: 0.05 });
const maskable = svg({ rounded: false, inset: 0.15 });
await render(any, 192, 'icon-192.png');
await render(any, 512, 'icon-512.png');
await render(maskable, 512, 'maskable-512.png');
await render(full, 180, 'apple-touch-icon.png');
writeFileSync(join(pub, 'favicon.svg'), any);
console.log(`icons written to ${out}`);
