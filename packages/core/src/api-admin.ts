import { z } from 'zod';
import { MODERATION_CONTENT_TYPES, MODERATION_STATUSES } from './api-moderation.ts';
import { REPORT_CATEGORIES, REPORT_STATUSES } from './reports.ts';
import { STAFF_ROLES, TIERS } from './tiers.ts';

// The staff admin area's API contract. Staff never receive health, activity or
// contact records, exact locations, nor messages outside reported evidence; an email only
// through the identity lookup, which needs a reason and is audited.

const email = z.string().trim().toLowerCase().email('Enter a valid email address.').max(254);
const reason = z.string().trim().min(3, 'Give a reason.').max(500);

/** POST /admin/login (spec section 5: a password or a Google identifier). */
export const adminLoginBody = z
  .object({ email, password: z.string().min(1).max(200).optional(), googleUid: z.string().min(1).max(200).optional() })
  .refine((b) => b.password !== undefined || b.googleUid !== undefined, {
    message: 'Either password or googleUid must be provided',
    path: ['password'],
  });

/** The first step's answer: a challenge for the second factor, and the secret when none is set up yet. */
export const adminChallengeSchema = z.object({
  challenge: z.string(),
  enroll: z.object({ secret: z.string(), uri: z.string() }).nullable(),
});
export type AdminChallenge = z.infer<typeof adminChallengeSchema>;

export const adminVerifyBody = z
  .object({
    challenge: z.string().min(1).max(2000),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'Enter the 6-digit code.')
      .optional(),
    recoveryCode: z.string().trim().min(8).max(40).optional(),
  })
  .refine((b) => b.code !== undefined || b.recoveryCode !== undefined, {
    message: 'Enter the 6-digit code.',
    path: ['code'],
  });

export const adminMeSchema = z.object({
  userId: z.string(),
  email: z.string(),
  role: z.enum(STAFF_ROLES),
  /** The explicit list on the record, or null for the role's defaults. */
  permissions: z.array(z.string()).nullable(),
  totpEnabled: z.boolean(),
  recoveryCodesLeft: z.number(),
});
export type AdminMe = z.infer<typeof adminMeSchema>;

export const adminSessionSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  me: adminMeSchema,
  /** Given once, when the second factor is first set up. */
  recoveryCodes: z.array(z.string()).nullable(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

// team
export const staffMemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  role: z.enum(STAFF_ROLES),
  permissions: z.array(z.string()).nullable(),
  isActive: z.boolean(),
  totpEnabled: z.boolean(),
  lastLogin: z.string().nullable(),
  invitedBy: z.string().nullable(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffMemberPatchBody = z.object({
  role: z.enum(STAFF_ROLES).optional(),
  permissions: z.array(z.string()).nullable().optional(),
  isActive: z.boolean().optional(),
});
export const userIdParams = z.object({ userId: z.string().min(1).max(100) });
export const adminIdParams = z.object({ id: z.string().min(1).max(100) });

export const inviteBody = z.object({ email, role: z.enum(STAFF_ROLES) });
export const inviteSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(STAFF_ROLES),
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  state: z.enum(['pending', 'accepted', 'revoked', 'expired']),
});
export type Invite = z.infer<typeof inviteSchema>;
export const inviteCreatedSchema = inviteSchema.extend({ link: z.string() });
export const inviteTokenParams = z.object({ token: z.string().min(10).max(200) });
export const invitePeekSchema = z.object({ email: z.string(), role: z.enum(STAFF_ROLES), expiresAt: z.string() });
export const inviteAcceptBody = z.object({ token: z.string().min(10).max(200), password: z.string().min(1).max(200) });

// users
export const adminUsersQuery = z.object({
  q: z.string().trim().max(200).optional(),
  status: z.enum(['active', 'inactive', 'all']).default('all'),
  tier: z.enum(TIERS).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const adminUserRowSchema = z.object({
  id: z.string(),
  anonymousId: z.string().nullable(),
  displayName: z.string().nullable(),
  tier: z.enum(TIERS),
  isActive: z.boolean(),
  staffRole: z.enum(STAFF_ROLES).nullable(),
  createdAt: z.string(),
  lastSeen: z.string().nullable(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;
export const adminUsersPageSchema = z.object({
  rows: z.array(adminUserRowSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

/** A report on a user's record: filed against him, or by him; `other` is the member on the other side. */
export const adminUserReportSchema = z.object({
  id: z.string(),
  category: z.enum(REPORT_CATEGORIES),
  reason: z.string(),
  status: z.enum(REPORT_STATUSES),
  createdAt: z.string(),
  other: z.object({ id: z.string(), displayName: z.string().nullable(), anonymousId: z.string().nullable() }),
});
export type AdminUserReport = z.infer<typeof adminUserReportSchema>;
/** How many of his latest reports, either way, and moderation items his record lists. */
export const USER_DETAIL_LIST = 20;

export const adminUserDetailSchema = adminUserRowSchema.extend({
  age: z.number().nullable(),
  bio: z.string().nullable(),
  onboardingComplete: z.boolean(),
  photos: z.number(),
  reportsAgainst: z.number(),
  reportsBy: z.number(),
  /** The latest reports filed against him and by him (USER_DETAIL_LIST each; the counts above are all of them). */
  reports: z.object({ against: z.array(adminUserReportSchema), by: z.array(adminUserReportSchema) }),
  moderationItems: z.array(
    z.object({
      id: z.string(),
      status: z.enum(MODERATION_STATUSES),
      contentType: z.enum(MODERATION_CONTENT_TYPES),
      flaggedReason: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  banned: z.object({ reason: z.string(), until: z.string().nullable() }).nullable(),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const banBody = z.object({
  reason,
  /** ISO date-time; absent or null for a permanent ban. */
  until: z.string().datetime({ offset: true }).nullable().optional(),
});
export const reasonBody = z.object({ reason });
/**
 * A staff tier change: a complimentary subscription to `tier` until `until` (COMP_DEFAULT_DAYS
 * from now when absent), or, for free, the end of his staff grants.
 */
export const tierBody = z.object({ tier: z.enum(TIERS), reason, until: z.string().datetime({ offset: true }).optional() });
export const anonymousIdResultSchema = z.object({ anonymousId: z.string() });

export const identityLookupBody = z.object({ anonymousId: z.string().trim().max(40), reason });
export const identityLookupSchema = z.object({
  anonymousId: z.string(),
  email: z.string(),
  userId: z.string(),
  isActive: z.boolean(),
});

export const banRecordSchema = z.object({
  hash: z.string(),
  reason: z.string(),
  bannedBy: z.string(),
  /** The banning staff member's display name, when he has one. */
  bannedByName: z.string().nullable(),
  bannedAt: z.string(),
  until: z.string().nullable(),
  isPermanent: z.boolean(),
  associatedAnonymousIds: z.array(z.string()),
});
export const bansSchema = z.object({
  rows: z.array(banRecordSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
/** Bans by words of the reason, an anonymous id, a hash's start, the banning staff member's name, or an exact email. */
export const bansQuery = z.object({
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const banHashParams = z.object({ hash: z.string().min(10).max(200) });

// audit
export const auditQuery = z.object({
  action: z.string().trim().max(60).optional(),
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export const auditRowSchema = z.object({
  id: z.string(),
  adminId: z.string(),
  adminEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  anonymousId: z.string().nullable(),
  reason: z.string(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;
export const auditPageSchema = z.object({
  rows: z.array(auditRowSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  chain: z.object({ ok: z.boolean(), rows: z.number(), brokenAt: z.string().nullable() }),
});

// dashboard
/** One value a UTC day, every day of the window (a day with nothing is a zero, never missing). */
const series = z.array(z.object({ day: z.string(), n: z.number() }));
export const dashboardSchema = z.object({
  today: z.object({
    signups: z.number(),
    activeUsers: z.number(),
    matches: z.number(),
    messages: z.number(),
    /** Completed payments less refunds today, in the currency's minor unit (cents). */
    revenue: z.number(),
    openReports: z.number(),
    pendingModeration: z.number(),
  }),
  /** The last 30 UTC days, oldest first, today last. */
  days: z.object({
    signups: series,
    activeUsers: series,
    matches: series,
    messages: series,
    revenue: series,
    reports: series,
    moderation: series,
  }),
  totals: z.object({
    users: z.number(),
    activeUsers30d: z.number(),
    revenue30d: z.number(),
    openReports: z.number(),
    pendingModeration: z.number(),
  }),
  currency: z.string(),
  /** What counts as active, said on the screen. */
  activeMeans: z.string(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

// system
export const betaSettingsSchema = z.object({
  enabled: z.boolean(),
  maxUsers: z.number().int().min(0).max(10_000_000),
  currentCount: z.number().int().min(0),
  lifetimePremium: z.boolean(),
  autoClose: z.boolean(),
});
export const betaSettingsBody = betaSettingsSchema.omit({ currentCount: true }).extend({ reason });
