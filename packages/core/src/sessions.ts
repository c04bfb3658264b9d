import { z } from 'zod';

/**
 * "Where you're signed in": each live session of the account as its owner sees it. The network
 * address is not shown (it is personal data of its own and says little to a person); the device
 * is named from the browser's user agent.
 */
export const deviceSessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  current: z.boolean(),
});
export type DeviceSession = z.infer<typeof deviceSessionSchema>;

export const deviceSessionsSchema = z.object({ sessions: z.array(deviceSessionSchema) });
export const sessionIdParams = z.object({ id: z.string().min(1).max(200) });
export const signedOutElsewhereSchema = z.object({ signedOut: z.number().int().min(0) });

export const SessionMessages = {
  notFound: 'That session has already ended.',
} as const;

const BROWSERS: [RegExp, string][] = [
  [/EdgA?\/|Edg\//, 'Edge'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/CriOS\/|Chrome\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'Mac'],
  [/Windows/, 'Windows'],
  [/Linux/, 'Linux'],
];

/** "Chrome on Android", "Safari on iPhone"; "Unknown device" when the user agent names neither. */
export function deviceLabel(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}
