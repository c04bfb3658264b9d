import { z } from 'zod';
import { normaliseText } from './alerts.ts';
import { DAY } from './clock.ts';

/**
 * Meetup safety (spec section 3 meetupSafety): a trusted contact (a name and an
 * email, and a safe word), and meetup check-ins: who he meets, where and when, shared with the
 * contact (friendNotificationEnabled); if he has not checked in by the time he set, the contact
 * gets an email with those details (emergencyContactEnabled). His safe word sent in any chat
 * raises a high alert and emails the contact (safeWordEnabled).
 */

export const MeetupMessages = {
  contactRequired: 'Add a trusted contact first.',
  checkinsOff: 'Turn on emergency contact or friend notification in your safety settings to use meetup check-ins.',
  badTimes: 'Choose a check-in time after the meetup starts and within 24 hours from now.',
  notFound: 'Check-in not found',
  notActive: 'This check-in is already closed.',
  badEmail: 'Enter a valid email address for your contact.',
  safeWordLength: 'A safe word is 3 to 40 characters.',
} as const;

/** A check-in can be due at most this far ahead: a meetup tonight, not a standing order. */
export const CHECKIN_MAX_AHEAD_MS = DAY;

export const safetyContactBody = z.object({
  name: z.string().trim().min(1, 'Enter your contact’s name.').max(60),
  email: z.string().trim().toLowerCase().email(MeetupMessages.badEmail).max(254),
  /** Sent in any chat (safeWordEnabled), it raises a high alert and emails the contact. */
  safeWord: z
    .string()
    .trim()
    .min(3, MeetupMessages.safeWordLength)
    .max(40, MeetupMessages.safeWordLength)
    .nullable()
    .default(null),
});
export type SafetyContactBody = z.infer<typeof safetyContactBody>;
export const safetyContactSchema = z.object({ name: z.string(), email: z.string(), safeWord: z.string().nullable() });
export type SafetyContact = z.infer<typeof safetyContactSchema>;

export const meetupCheckinBody = z.object({
  /** Who he meets, in his words (a name, a profile name, "the guy from the bar"). */
  meetingWho: z.string().trim().min(1, 'Say who you are meeting.').max(80),
  place: z.string().trim().min(1, 'Say where you are meeting.').max(160),
  startsAt: z.iso.datetime({ offset: true, error: 'Give the meetup time as a date and time.' }),
  checkInBy: z.iso.datetime({ offset: true, error: 'Give the check-in time as a date and time.' }),
});
export type MeetupCheckinBody = z.infer<typeof meetupCheckinBody>;

export const MEETUP_CHECKIN_STATUSES = ['active', 'checked_in', 'overdue', 'cancelled'] as const;
export const meetupCheckinSchema = z.object({
  id: z.string(),
  meetingWho: z.string(),
  place: z.string(),
  startsAt: z.string(),
  checkInBy: z.string(),
  status: z.enum(MEETUP_CHECKIN_STATUSES),
  /** Whether the contact was told at creation (friendNotificationEnabled). */
  contactTold: z.boolean(),
  createdAt: z.string(),
});
export type MeetupCheckin = z.infer<typeof meetupCheckinSchema>;

/** Whether a check-in's times make sense now: due after the meetup starts, in the future, within a day. */
export function validCheckinTimes(startsAt: Date, checkInBy: Date, now: Date): boolean {
  return checkInBy > startsAt && checkInBy > now && checkInBy.getTime() - now.getTime() <= CHECKIN_MAX_AHEAD_MS;
}

/** Whether a message contains his safe word (whole words, case and punctuation aside). */
export function containsSafeWord(text: string, safeWord: string): boolean {
  const word = normaliseText(safeWord);
  if (!word) return false;
  return ` ${normaliseText(text)} `.includes(` ${word} `);
}
