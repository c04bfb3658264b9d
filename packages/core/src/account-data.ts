import { z } from 'zod';
import type { RateLimit } from './account.ts';
import { DAY } from './clock.ts';

/**
 * The person's rights over his data: 'Download my data' (GDPR art. 20, an archive of everything
 * the server holds about him) and 'Delete my account' (art. 17, everything erased but what the
 * law needs).
 */

/** An archive can be downloaded for a day after it is ready; then the file is deleted. */
export const DATA_EXPORT_TTL_MS = DAY;
/** Building one reads and zips every photo: a few a day are plenty for one person. */
export const DATA_EXPORT_LIMIT: RateLimit = { max: 3, windowMs: DAY };

/** The word a Google-only account (no password to ask) types to confirm its deletion. */
export const DELETE_CONFIRM_WORD = 'DELETE';

/**
 * The archive's files, one per category the server holds about the user (photos' bytes under
 * photos/, messages/photos/, reports/screenshots/ and support/screenshots/ beside them). A test holds the archive to this list.
 */
export const DATA_EXPORT_FILES = [
  'README.txt',
  'profile.json',
  'settings.json',
  'photos.json',
  'prompts.json',
  'selections.json',
  'matches.json',
  'conversations.json',
  'health.json',
  'activity.json',
  'cruise.json',
  'blocks.json',
  'reports.json',
  'alerts.json',
  'support.json',
  'payments.json',
  'sessions.json',
  'audit.json',
  'push-subscriptions.json',
] as const;

export const DataRightsMessages = {
  exportRunning: 'Your data is already being prepared. It will be ready in a moment.',
  exportLimit: 'You can ask for your data 3 times a day. Please try again tomorrow.',
  exportNotFound: 'This download does not exist.',
  exportExpired: 'This download has expired. Ask for a new one.',
  exportNotReady: 'Your data is not ready yet.',
  passwordRequired: 'Enter your password to delete your account.',
  confirmRequired: `Type ${DELETE_CONFIRM_WORD} to confirm.`,
  accountDeleted: 'Your account and your data were deleted.',
} as const;

export const DATA_EXPORT_STATUSES = ['building', 'ready', 'failed', 'expired'] as const;

/** One archive as its owner sees it; downloadable while `ready`, until `expiresAt`. */
export const dataExportSchema = z.object({
  id: z.string(),
  status: z.enum(DATA_EXPORT_STATUSES),
  /** 0–100. */
  progress: z.number().int(),
  createdAt: z.string(),
  readyAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  bytes: z.number().int().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;

/** GET /account/export: the newest archive, or none. */
export const dataExportStateSchema = z.object({ export: dataExportSchema.nullable() });
export type DataExportState = z.infer<typeof dataExportStateSchema>;

export const dataExportParams = z.object({ id: z.string().min(1).max(64) });

/**
 * POST /account/delete: the password, or for an account without one (Google sign-in only) the
 * word DELETE typed out.
 */
export const deleteAccountBody = z.object({
  password: z.string().max(200, 'Enter your password.').optional(),
  confirm: z.string().max(20).optional(),
});
export type DeleteAccount = z.infer<typeof deleteAccountBody>;
