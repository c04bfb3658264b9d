import { z } from 'zod';
import { isLocalDate, isValidTimeZone, PROTECTION, REMINDER_TYPES } from './health.ts';

/**
 * Health and activity contract, all under /api/v1, only ever about the caller's own
 * records (no other user, no staff role, ever reads them):
 *   PUT    /health/settings {timeZone}              → 204 (the zone reminders are pushed in)
 *   GET    /health/summary                          → HealthSummary (the red dot, /track)
 *   GET    /health/medications                      POST /health/medications
 *   PATCH  /health/medications/:id                  DELETE /health/medications/:id
 *   POST   /health/medications/:id/taken {taken}    → MedicationLog (updates the dose's log or creates it)
 *   GET    /health/medication-logs                  → MedicationLog[] (date descending, 200)
 *   GET    /health/screenings                       POST /health/screenings   PUT, DELETE /health/screenings/:id
 *   GET    /activity/contacts                       POST, PATCH /:id, DELETE /:id
 *   POST   /activity/contacts/:id/photo (multipart) → Contact;  GET → image/webp, to the owner only
 *   GET    /activity/logs                           POST, PATCH /:id, DELETE /:id
 *   GET    /activity/stats                          → ActivityStats
 *   GET    /me/private-data?format=json|csv         → everything above, as a download
 *   DELETE /me/private-data                         → 204 (records and the user's key: crypto-shredding)
 * Health calls answer 403 while healthEnabled is off, activity calls while activityTrackingEnabled is off.
 */

export const MEDICATIONS_LIMIT = 100;
export const MEDICATION_LOGS_LIMIT = 200;
export const SCREENINGS_LIMIT = 50;
export const CONTACTS_LIMIT = 100;
export const ACTIVITY_LOGS_LIMIT = 100;
export const SCREENING_RESULTS = ['negative', 'positive', 'pending', 'inconclusive'] as const;
export const HEALTH_DISABLED = 'Health tracking is turned off. Turn it on in Settings to use it.';
export const ACTIVITY_DISABLED = 'Activity tracking is turned off. Turn it on in Settings to use it.';

const text = (max: number) => z.string().trim().max(max, `Use at most ${max} characters.`);
const optionalText = (max: number) =>
  text(max)
    .nullish()
    .transform((v) => (v ? v : null));
const localDate = z.string().refine(isLocalDate, 'Use a date like 2026-01-31.');
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time like 09:00.');
const id = z.string().min(1).max(64);

export const medicationSchema = z.object({
  id: z.string(),
  name: z.string(),
  reminderTime: z.string(),
  reminderType: z.enum(REMINDER_TYPES),
  postExposureHours: z.number().int().nullable(),
  isActive: z.boolean(),
  created: z.string(),
});
export type Medication = z.infer<typeof medicationSchema>;

const medicationFields = {
  name: text(80).min(1, 'Enter the medication name.'),
  reminderTime: hhmm,
  reminderType: z.enum(REMINDER_TYPES, { error: 'Choose daily or on-demand.' }),
  postExposureHours: z
    .number()
    .int('Use whole hours.')
    .min(1, 'Use between 1 and 168 hours.')
    .max(168, 'Use between 1 and 168 hours.')
    .nullable(),
  isActive: z.boolean(),
};
export const createMedicationBody = z
  .object({
    ...medicationFields,
    reminderType: medicationFields.reminderType.default('daily'),
    postExposureHours: medicationFields.postExposureHours.default(null),
    isActive: z.boolean().default(true),
  })
  .strict();
export type CreateMedication = z.input<typeof createMedicationBody>;
export const updateMedicationBody = z.object(medicationFields).partial().strict();
export type UpdateMedication = z.infer<typeof updateMedicationBody>;

export const medicationLogSchema = z.object({
  id: z.string(),
  medicationId: z.string(),
  date: z.string(),
  taken: z.boolean(),
  takenAt: z.string().nullable(),
});
export type MedicationLog = z.infer<typeof medicationLogSchema>;
export const takenBody = z.object({ taken: z.boolean().default(true) }).strict();

export const screeningSchema = z.object({
  id: z.string(),
  date: z.string(),
  tests: z.array(z.string()),
  results: z.record(z.string(), z.enum(SCREENING_RESULTS)),
  created: z.string(),
});
export type Screening = z.infer<typeof screeningSchema>;
export const createScreeningBody = z
  .object({
    date: localDate,
    tests: z.array(text(60).min(1)).min(1, 'Add at least one test.').max(20, 'Add at most 20 tests.'),
    results: z
      .record(text(60).min(1), z.enum(SCREENING_RESULTS, { error: 'Use negative, positive, pending or inconclusive.' }))
      .default({}),
  })
  .strict()
  .refine((b) => Object.keys(b.results).every((k) => b.tests.includes(k)), {
    message: 'Results can only be given for the tests listed.',
    path: ['results'],
  });
export type CreateScreening = z.input<typeof createScreeningBody>;

export const contactSchema = z.object({
  id: z.string(),
  name: z.string(),
  nickname: z.string().nullable(),
  age: z.number().int().nullable(),
  /** An uploaded photo's authenticated API path (fetched with the owner's token), or a web address. */
  photoURL: z.string().nullable(),
  /** A linked FMK user (their uid), when the contact is one. */
  userId: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  notes: z.string().nullable(),
  tags: z.array(z.string()),
  /** Derived from the activity log on every read, so they are always true. */
  lastActivity: z.string().nullable(),
  totalActivities: z.number().int(),
  avgRating: z.number().nullable(),
  created: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;
const contactFields = {
  name: text(60).min(1, 'Enter a name.'),
  nickname: optionalText(60),
  age: z.number().int('Age must be a whole number.').min(18, 'Contacts must be 18 or older.').max(120).nullable(),
  photoURL: z
    .string()
    .trim()
    .max(2000)
    .refine((v) => v === '' || /^https?:\/\//.test(v) || v.startsWith('/'), 'Use a web address for the photo.')
    .nullish()
    .transform((v) => (v ? v : null)),
  userId: id.nullable(),
  phoneNumber: z
    .string()
    .trim()
    .max(30)
    .refine((v) => v === '' || /^[+\d][\d\s().-]{2,29}$/.test(v), 'Enter a phone number with digits only.')
    .nullish()
    .transform((v) => (v ? v : null)),
  notes: optionalText(2000),
  tags: z.array(text(30).min(1)).max(20, 'Add at most 20 tags.'),
};
export const createContactBody = z
  .object({
    ...contactFields,
    age: contactFields.age.default(null),
    userId: contactFields.userId.default(null),
    tags: contactFields.tags.default([]),
  })
  .strict();
export type CreateContact = z.input<typeof createContactBody>;
export const updateContactBody = z.object(contactFields).partial().strict();

export const activityLogSchema = z.object({
  id: z.string(),
  date: z.string(),
  /** Contact ids. */
  partners: z.array(z.string()),
  location: z.string().nullable(),
  activities: z.array(z.string()),
  rating: z.number().int().nullable(),
  notes: z.string().nullable(),
  /** Minutes. */
  duration: z.number().int().nullable(),
  protection: z.enum(PROTECTION),
  created: z.string(),
});
export type ActivityLog = z.infer<typeof activityLogSchema>;
const activityFields = {
  date: localDate,
  partners: z.array(id).max(20, 'Add at most 20 partners.'),
  location: optionalText(120),
  activities: z.array(text(60).min(1)).max(20, 'Add at most 20 activities.'),
  rating: z.number().int('Rate from 1 to 5.').min(1, 'Rate from 1 to 5.').max(5, 'Rate from 1 to 5.').nullable(),
  notes: optionalText(2000),
  duration: z
    .number()
    .int('Use whole minutes.')
    .min(1, 'Use between 1 and 1440 minutes.')
    .max(1440, 'Use between 1 and 1440 minutes.')
    .nullable(),
  protection: z.enum(PROTECTION, { error: 'Choose protected, unprotected or not applicable.' }),
};
export const createActivityLogBody = z
  .object({
    ...activityFields,
    partners: activityFields.partners.default([]),
    activities: activityFields.activities.default([]),
    rating: activityFields.rating.default(null),
    duration: activityFields.duration.default(null),
  })
  .strict();
export type CreateActivityLog = z.input<typeof createActivityLogBody>;
export const updateActivityLogBody = z.object(activityFields).partial().strict();

export const activityStatsSchema = z.object({
  totalActivities: z.number().int(),
  uniquePartners: z.number().int(),
  averageRating: z.number(),
  favoriteActivity: z.string(),
  favoriteLocation: z.string(),
  thisMonth: z.number().int(),
  thisWeek: z.number().int(),
});

export const healthSettingsBody = z.object({ timeZone: z.string().refine(isValidTimeZone, 'Unknown time zone.') }).strict();

/** GET /health/summary: what the red dot and /track need, decided on the server in the user's zone. */
export const healthSummarySchema = z.object({
  today: z.string(),
  timeZone: z.string(),
  dueMedicationIds: z.array(z.string()),
  screeningOverdue: z.boolean(),
  lastScreening: z.string().nullable(),
  suggestion: z.object({ unprotected: z.number().int(), protected: z.number().int(), suggested: z.boolean() }),
});
export type HealthSummary = z.infer<typeof healthSummarySchema>;

export const privateDataExportSchema = z.object({
  exportedAt: z.string(),
  medications: z.array(medicationSchema),
  medicationLogs: z.array(medicationLogSchema),
  screenings: z.array(screeningSchema),
  contacts: z.array(contactSchema),
  activityLogs: z.array(activityLogSchema),
});
export type PrivateDataExport = z.infer<typeof privateDataExportSchema>;
export const exportQuery = z.object({ format: z.enum(['json', 'csv']).default('json') });

/** What is stored encrypted for each record (the id and creation time are the row's; contact figures are derived). */
export type MedicationData = Omit<Medication, 'id' | 'created'>;
export type MedicationLogData = Omit<MedicationLog, 'id'>;
export type ScreeningData = Omit<Screening, 'id' | 'created'>;
export type ContactData = Omit<Contact, 'id' | 'created' | 'lastActivity' | 'totalActivities' | 'avgRating'>;
export type ActivityLogData = Omit<ActivityLog, 'id' | 'created'>;
