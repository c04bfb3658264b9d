import sharp from 'sharp';

/**
 * Two small labelled sets drawn here, for the moderation model's tests and benchmark (no photo
 * of a person is shipped in the repository):
 * - neutral: landscapes (sky, field, a mountain, a sun) in five palettes;
 * - explicit-looking: a close-up of bare skin filling the frame, shaded like a body with a
 *   dark crease down the middle, in five skin tones, with grain and blur like a phone photo.
 * The model cannot see anything explicit in either; what the tests show is that it scores the
 * second set clearly higher, i.e. that the real model runs and reads the pixels.
 */
const SIZE = 224;

export async function neutralImage(i: number): Promise<Buffer> {
  const sky = ['87ceeb', '4682b4', 'b0e0e6', 'add8e6', '708090'][i % 5];
  const field = ['228b22', '556b2f', '2e8b57', '6b8e23', '8fbc8f'][i % 5];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}">
    <rect width="${SIZE}" height="130" fill="#${sky}"/><rect y="130" width="${SIZE}" height="94" fill="#${field}"/>
    <polygon points="20,130 80,${50 + (i % 5) * 5} 140,130" fill="#696969"/><circle cx="180" cy="40" r="18" fill="#ffd700"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

const SKIN: [number, number, number][] = [
  [224, 172, 105],
  [198, 134, 66],
  [241, 194, 125],
  [255, 219, 172],
  [141, 85, 36],
];

export async function explicitLookingImage(i: number): Promise<Buffer> {
  const base = SKIN[i % SKIN.length]!;
  const raw = Buffer.alloc(SIZE * SIZE * 3);
  let seed = i + 1;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const c = SIZE / 2;
      const shade = Math.abs(x - c) < 4 ? 0.4 : 0.5 + 0.5 * Math.exp(-((x - c) ** 2 + (y - c) ** 2) / (2 * 90 * 90));
      const grain = (random() - 0.5) * 12;
      for (let ch = 0; ch < 3; ch++)
        raw[(y * SIZE + x) * 3 + ch] = Math.max(0, Math.min(255, Math.round(base[ch]! * shade + grain)));
    }
  }
  return sharp(raw, { raw: { width: SIZE, height: SIZE, channels: 3 } })
    .blur(2)
    .jpeg()
    .toBuffer();
}
