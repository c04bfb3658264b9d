/** Generated placeholder avatars (spec: "random placeholder photo"; no external image service). */
const GRADIENTS: readonly [string, string][] = [
  ['#FF4458', '#FF8A5B'],
  ['#6C5CE7', '#A29BFE'],
  ['#0984E3', '#74B9FF'],
  ['#00A884', '#55EFC4'],
  ['#E17055', '#FAB1A0'],
  ['#2D3436', '#636E72'],
  ['#D63031', '#FF7675'],
  ['#B33771', '#FD7272'],
];

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function initialsOf(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? `${parts[0]![0]}${parts[parts.length - 1]![0]}` : (parts[0]?.slice(0, 2) ?? '?');
  return letters.toUpperCase();
}

/** An SVG of initials on a gradient chosen from the seed: the same seed always looks the same. */
export function placeholderAvatarSvg(seed: string, name: string | null | undefined, size = 384): string {
  const [a, b] = GRADIENTS[hash(seed) % GRADIENTS.length]!;
  const text = initialsOf(name).replace(/[<>&"']/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs><rect width="100" height="100" fill="url(#g)"/><text x="50" y="50" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-size="38" font-weight="700" fill="#fff">${text}</text></svg>`;
}

export function placeholderAvatarDataUrl(seed: string, name: string | null | undefined): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(placeholderAvatarSvg(seed, name))}`;
}
