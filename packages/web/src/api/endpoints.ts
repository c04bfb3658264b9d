import type {
  acceptCallBody,
  accountNoticeSchema,
  activityLogSchema,
  activityStatsSchema,
  addCardBody,
  adminChallengeSchema,
  adminLoginBody,
  adminMeSchema,
  adminSessionSchema,
  adminUserDetailSchema,
  adminUsersPageSchema,
  adminUsersQuery,
  adminVerifyBody,
  alertSchema,
  alertStateBody,
  anonymousIdResultSchema,
  auditPageSchema,
  auditQuery,
  authResultSchema,
  badgesSchema,
  banBody,
  bansSchema,
  betaSettingsBody,
  betaSettingsSchema,
  billingSummarySchema,
  blockedUserSchema,
  callSchema,
  cancelSubscriptionBody,
  changeEmailBody,
  changePasswordBody,
  checkinBody,
  commentBody,
  contactSchema,
  conversationSchema,
  createActivityLogBody,
  createContactBody,
  createFeedbackBody,
  createMedicationBody,
  createScreeningBody,
  createThreadBody,
  createUserReportBody,
  cruiseConfigSchema,
  cruiseStatusSchema,
  dashboardSchema,
  dataExportSchema,
  dataExportStateSchema,
  deleteAccountBody,
  deviceSessionsSchema,
  emailConfirmedSchema,
  eventBody,
  eventCommentSchema,
  eventDetailSchema,
  eventListSchema,
  featureFlagsSchema,
  featureUseSchema,
  feedbackSchema,
  forgotPasswordBody,
  gridPageSchema,
  gridQuery,
  healthSettingsBody,
  healthSummarySchema,
  iceConfigSchema,
  identityLookupBody,
  identityLookupSchema,
  inviteAcceptBody,
  inviteBody,
  inviteCreatedSchema,
  invitePeekSchema,
  inviteSchema,
  likesPageSchema,
  linkTokenBody,
  locationBody,
  locationConsentBody,
  matchSchema,
  medicationLogSchema,
  medicationSchema,
  meSchema,
  messagePageSchema,
  messageSchema,
  moderationDecisionBody,
  moderationItemSchema,
  moderationListQuery,
  modeSwitchBody,
  nearbyPageSchema,
  nearbyQuery,
  oneTimeBody,
  openConversationBody,
  pageQuery,
  passwordResetSchema,
  paymentAnswerSchema,
  paymentMethodSchema,
  phoneStatusSchema,
  photoOrderBody,
  photoSchema,
  precisionBody,
  promptLikeResultSchema,
  promptSchema,
  publicConfigSchema,
  publicProfileSchema,
  pushSubscriptionBody,
  readBody,
  reasonBody,
  recoveryCodesSchema,
  redirectResultBody,
  reportListQuery,
  reportScreenshotSchema,
  reportStatusBody,
  resetPasswordBody,
  screeningSchema,
  screenshotSchema,
  selectionBody,
  selectionResultSchema,
  sendMessageBody,
  sessionInfoSchema,
  setPhoneBody,
  settingsPatchBody,
  settingsSchema,
  signalBody,
  signedOutElsewhereSchema,
  signInBody,
  signUpBody,
  sinceQuery,
  spotListSchema,
  spotProposalBody,
  spotSchema,
  staffMemberPatchBody,
  staffMemberSchema,
  staffUserReportSchema,
  startCallBody,
  startSessionBody,
  subscriptionBody,
  subscriptionListSchema,
  subscriptionSchema,
  supportMessageBody,
  systemHealthSchema,
  takenBody,
  threadDetailSchema,
  threadSchema,
  tierBody,
  typingBody,
  updateActivityLogBody,
  updateContactBody,
  updateMeBody,
  updateMedicationBody,
  updateSubscriptionBody,
  userReportSchema,
  verifyPhoneBody,
} from '@fmk/core';
import type { z } from 'zod';

/**
 * Every API route the web app calls, keyed 'METHOD /path/:param' (under /api/v1) exactly as the
 * server registers it, with what it takes and answers as types of core's schemas: the server
 * validates with the same schemas, so a contract change shows up here as a type error.
 *
 * Types only: each value is an empty object cast to its entry's shape, because the web build
 * ships no zod (README, "How the first screen is made fast"). The keys are the only run-time
 * part, and only the test that holds them to the server's routes reads them
 * (packages/server/test/endpoints.test.ts); `call` (call.ts) takes method and path from the key.
 */

/** What a request body must be: the schema's input (defaults may be left out). */
type In<S extends z.ZodType> = z.input<S>;
/** What an answer is: the schema's output, as the server serialises it. */
type Out<S extends z.ZodType> = z.output<S>;
/**
 * A query string's fields: optional where the schema lets them be left out, typed as the server
 * reads them after coercion (numbers, booleans), since every value travels as text.
 */
type QueryOf<S extends z.ZodType> = { [K in keyof In<S>]: K extends keyof Out<S> ? Out<S>[K] : In<S>[K] };

/** One route's shape; a route without `response` answers 204, one without `body` reads none. */
export interface EndpointShape {
  body?: unknown;
  query?: unknown;
  response?: unknown;
}

/** A route that reads no body and answers 204. */
type NoContent = Record<never, never>;
// Upload routes take multipart form data (a "file" field); the server re-encodes the image.
type Upload = FormData;

export const endpoints = {
  // auth (modules/auth)
  'POST /auth/signup': {} as { body: In<typeof signUpBody>; response: Out<typeof authResultSchema> },
  'POST /auth/login': {} as { body: In<typeof signInBody>; response: Out<typeof authResultSchema> },
  'POST /auth/logout': {} as NoContent,
  'POST /auth/refresh': {} as { response: Out<typeof authResultSchema> },
  'GET /auth/session': {} as { response: Out<typeof sessionInfoSchema> },
  'GET /auth/sessions': {} as { response: Out<typeof deviceSessionsSchema> },
  'DELETE /auth/sessions/:id': {} as NoContent,
  'POST /auth/sessions/sign-out-others': {} as { response: Out<typeof signedOutElsewhereSchema> },
  'POST /auth/redirect-result': {} as { body: In<typeof redirectResultBody>; response: Out<typeof authResultSchema> },
  'GET /config': {} as { response: Out<typeof publicConfigSchema> },

  // account (modules/account): the mailed links
  'POST /auth/verify': {} as { body: In<typeof linkTokenBody>; response: Out<typeof emailConfirmedSchema> },
  'POST /auth/verify/resend': {} as NoContent,
  'POST /auth/password/forgot': {} as { body: In<typeof forgotPasswordBody>; response: Out<typeof accountNoticeSchema> },
  'POST /auth/password/reset': {} as { body: In<typeof resetPasswordBody>; response: Out<typeof passwordResetSchema> },
  'POST /auth/password/change': {} as { body: In<typeof changePasswordBody> },
  'POST /auth/email/change': {} as { body: In<typeof changeEmailBody>; response: Out<typeof meSchema> },
  'POST /auth/email/cancel': {} as { response: Out<typeof meSchema> },
  // account (modules/account/data): download my data, delete my account
  'POST /account/export': {} as { response: Out<typeof dataExportSchema> },
  'GET /account/export': {} as { response: Out<typeof dataExportStateSchema> },
  'POST /account/delete': {} as { body: In<typeof deleteAccountBody>; response: Out<typeof accountNoticeSchema> },
  // account: the phone number, verified by a texted code
  'GET /me/phone': {} as { response: Out<typeof phoneStatusSchema> },
  'POST /me/phone': {} as { body: In<typeof setPhoneBody>; response: Out<typeof phoneStatusSchema> },
  'POST /me/phone/verify': {} as { body: In<typeof verifyPhoneBody>; response: Out<typeof phoneStatusSchema> },
  'DELETE /me/phone': {} as { response: Out<typeof phoneStatusSchema> },

  // support (modules/support): bug reports, feedback and conversations with support
  'POST /support/screenshots': {} as { body: Upload; response: Out<typeof screenshotSchema> },
  'GET /support/reports': {} as { response: Out<typeof feedbackSchema>[] },
  'POST /support/reports': {} as { body: In<typeof createFeedbackBody>; response: Out<typeof feedbackSchema> },
  'GET /support/threads': {} as { response: Out<typeof threadSchema>[] },
  'POST /support/threads': {} as { body: In<typeof createThreadBody>; response: Out<typeof threadDetailSchema> },
  'GET /support/threads/:id': {} as { response: Out<typeof threadDetailSchema> },
  'POST /support/threads/:id/messages': {} as {
    body: In<typeof supportMessageBody>;
    response: Out<typeof threadDetailSchema>;
  },

  // admin (issue 19): the staff area; each route's permission is in core's ADMIN_ROUTES
  'POST /admin/login': {} as { body: In<typeof adminLoginBody>; response: Out<typeof adminChallengeSchema> },
  'POST /admin/login/verify': {} as { body: In<typeof adminVerifyBody>; response: Out<typeof adminSessionSchema> },
  'POST /admin/logout': {} as NoContent,
  'GET /admin/me': {} as { response: Out<typeof adminMeSchema> },
  'POST /admin/me/recovery-codes': {} as { response: Out<typeof recoveryCodesSchema> },
  'GET /admin/dashboard': {} as { response: Out<typeof dashboardSchema> },
  'GET /admin/users': {} as { query: QueryOf<typeof adminUsersQuery>; response: Out<typeof adminUsersPageSchema> },
  'GET /admin/users/:id': {} as { response: Out<typeof adminUserDetailSchema> },
  'POST /admin/users/:id/ban': {} as { body: In<typeof banBody> },
  'POST /admin/users/:id/deactivate': {} as { body: In<typeof reasonBody> },
  'POST /admin/users/:id/reactivate': {} as { body: In<typeof reasonBody> },
  'POST /admin/users/:id/anonymous-id': {} as { body: In<typeof reasonBody>; response: Out<typeof anonymousIdResultSchema> },
  'POST /admin/users/:id/tier': {} as { body: In<typeof tierBody> },
  'POST /admin/identity/lookup': {} as { body: In<typeof identityLookupBody>; response: Out<typeof identityLookupSchema> },
  'GET /admin/bans': {} as { response: Out<typeof bansSchema> },
  'DELETE /admin/bans/:hash': {} as NoContent,
  'GET /admin/team/members': {} as { response: { rows: Out<typeof staffMemberSchema>[] } },
  'PATCH /admin/team/members/:userId': {} as { body: In<typeof staffMemberPatchBody> },
  'DELETE /admin/team/members/:userId': {} as NoContent,
  'GET /admin/team/invites': {} as { response: { rows: Out<typeof inviteSchema>[] } },
  'POST /admin/team/invites': {} as { body: In<typeof inviteBody>; response: Out<typeof inviteCreatedSchema> },
  'DELETE /admin/team/invites/:id': {} as NoContent,
  'GET /admin/invites/:token': {} as { response: Out<typeof invitePeekSchema> },
  'POST /admin/invites/accept': {} as { body: In<typeof inviteAcceptBody>; response: Out<typeof adminChallengeSchema> },
  'GET /admin/audit': {} as { query: QueryOf<typeof auditQuery>; response: Out<typeof auditPageSchema> },
  'GET /admin/system/settings': {} as { response: Out<typeof betaSettingsSchema> },
  'PUT /admin/system/settings': {} as { body: In<typeof betaSettingsBody>; response: Out<typeof betaSettingsSchema> },
  'GET /admin/system/health': {} as { response: Out<typeof systemHealthSchema> },
  'GET /admin/moderation/items': {} as {
    query: QueryOf<typeof moderationListQuery>;
    response: Out<typeof moderationItemSchema>[];
  },
  'PATCH /admin/moderation/items/:id': {} as {
    body: In<typeof moderationDecisionBody>;
    response: Out<typeof moderationItemSchema>;
  },
  'GET /admin/reports': {} as { query: QueryOf<typeof reportListQuery>; response: Out<typeof staffUserReportSchema>[] },
  'PATCH /admin/reports/:id': {} as { body: In<typeof reportStatusBody>; response: Out<typeof staffUserReportSchema> },

  // profiles
  'GET /me': {} as { response: Out<typeof meSchema> },
  'PATCH /me': {} as { body: In<typeof updateMeBody>; response: Out<typeof meSchema> },
  'POST /me/mode': {} as { body: In<typeof modeSwitchBody>; response: Out<typeof meSchema> },
  'POST /me/onboarding/complete': {} as { response: Out<typeof meSchema> },
  'POST /me/photos': {} as { body: Upload; response: Out<typeof photoSchema> },
  'DELETE /me/photos/:photoId': {} as NoContent,
  'PUT /me/photos/order': {} as { body: In<typeof photoOrderBody>; response: Out<typeof meSchema> },
  'GET /users/:userId': {} as { response: Out<typeof publicProfileSchema> },
  'POST /users/:userId/prompts/:promptId/like': {} as { response: Out<typeof promptLikeResultSchema> },
  'DELETE /users/:userId/prompts/:promptId/like': {} as { response: Out<typeof promptLikeResultSchema> },

  // prompts
  'GET /prompts': {} as { response: Out<typeof promptSchema>[] },

  // game
  'POST /selections': {} as { body: In<typeof selectionBody>; response: Out<typeof selectionResultSchema> },
  'GET /matches': {} as { response: Out<typeof matchSchema>[] },
  'GET /likes': {} as { response: Out<typeof likesPageSchema> },
  'POST /likes/seen': {} as NoContent,
  'GET /badges': {} as { response: Out<typeof badgesSchema> },

  // messaging
  'GET /conversations': {} as { response: Out<typeof conversationSchema>[] },
  'POST /conversations': {} as { body: In<typeof openConversationBody>; response: Out<typeof conversationSchema> },
  'GET /conversations/:id': {} as { response: Out<typeof conversationSchema> },
  'DELETE /conversations/:id': {} as NoContent,
  'GET /conversations/:id/messages': {} as { query: QueryOf<typeof pageQuery>; response: Out<typeof messagePageSchema> },
  'POST /conversations/:id/messages': {} as { body: In<typeof sendMessageBody>; response: Out<typeof messageSchema> },
  'POST /conversations/:id/read': {} as { body: In<typeof readBody> },
  'POST /conversations/:id/typing': {} as { body: In<typeof typingBody> },
  'GET /messages/since': {} as { query: QueryOf<typeof sinceQuery>; response: Out<typeof messagePageSchema> },
  'POST /messages/photos': {} as { body: Upload; response: Out<typeof photoSchema> },

  // calls (modules/calls): ringing, answering, signalling; media goes peer to peer
  'GET /calls/ice-servers': {} as { response: Out<typeof iceConfigSchema> },
  'GET /calls/current': {} as { response: Out<typeof callSchema> | null },
  'POST /calls': {} as { body: In<typeof startCallBody>; response: Out<typeof callSchema> },
  'GET /calls/:id': {} as { response: Out<typeof callSchema> },
  'GET /calls/:id/description': {} as { query: { kind: 'offer' | 'answer' }; response: { sdp: string | null } },
  'POST /calls/:id/accept': {} as { body: In<typeof acceptCallBody>; response: Out<typeof callSchema> },
  'POST /calls/:id/decline': {} as { response: Out<typeof callSchema> },
  'POST /calls/:id/hangup': {} as { response: Out<typeof callSchema> },
  'POST /calls/:id/signal': {} as { body: In<typeof signalBody> },

  // safety
  'POST /users/:id/block': {} as NoContent,
  'DELETE /users/:id/block': {} as NoContent,
  'GET /me/blocked': {} as { response: Out<typeof blockedUserSchema>[] },
  'POST /reports/screenshots': {} as { body: Upload; response: Out<typeof reportScreenshotSchema> },
  'POST /users/:id/report': {} as { body: In<typeof createUserReportBody>; response: Out<typeof userReportSchema> },
  'GET /me/reports': {} as { response: Out<typeof userReportSchema>[] },
  'GET /me/alerts': {} as { response: Out<typeof alertSchema>[] },
  'PATCH /me/alerts/:id': {} as { body: In<typeof alertStateBody>; response: Out<typeof alertSchema> },

  // settings
  'GET /me/settings': {} as { response: Out<typeof settingsSchema> },
  'PATCH /me/settings': {} as { body: In<typeof settingsPatchBody>; response: Out<typeof settingsSchema> },

  // discovery
  'PUT /me/location': {} as { body: In<typeof locationBody> },
  'PUT /me/location/consent': {} as { body: In<typeof locationConsentBody> },
  'DELETE /me/location': {} as NoContent,
  'GET /grid': {} as { query: QueryOf<typeof gridQuery>; response: Out<typeof gridPageSchema> },

  // notifications
  'PUT /me/push-subscription': {} as { body: In<typeof pushSubscriptionBody> },
  'DELETE /me/push-subscription': {} as { body: Pick<In<typeof pushSubscriptionBody>, 'endpoint'> },

  // health
  'PUT /health/settings': {} as { body: In<typeof healthSettingsBody> },
  'GET /health/summary': {} as { response: Out<typeof healthSummarySchema> },
  'GET /health/medications': {} as { response: Out<typeof medicationSchema>[] },
  'POST /health/medications': {} as { body: In<typeof createMedicationBody>; response: Out<typeof medicationSchema> },
  'PATCH /health/medications/:id': {} as { body: In<typeof updateMedicationBody>; response: Out<typeof medicationSchema> },
  'DELETE /health/medications/:id': {} as NoContent,
  'POST /health/medications/:id/taken': {} as { body: In<typeof takenBody>; response: Out<typeof medicationLogSchema> },
  'GET /health/medication-logs': {} as { response: Out<typeof medicationLogSchema>[] },
  'GET /health/screenings': {} as { response: Out<typeof screeningSchema>[] },
  'POST /health/screenings': {} as { body: In<typeof createScreeningBody>; response: Out<typeof screeningSchema> },
  'PUT /health/screenings/:id': {} as { body: In<typeof createScreeningBody>; response: Out<typeof screeningSchema> },
  'DELETE /health/screenings/:id': {} as NoContent,
  'DELETE /me/private-data': {} as NoContent,

  // activity
  'GET /activity/contacts': {} as { response: Out<typeof contactSchema>[] },
  'POST /activity/contacts': {} as { body: In<typeof createContactBody>; response: Out<typeof contactSchema> },
  'PATCH /activity/contacts/:id': {} as { body: In<typeof updateContactBody>; response: Out<typeof contactSchema> },
  'DELETE /activity/contacts/:id': {} as NoContent,
  'POST /activity/contacts/:id/photo': {} as { body: Upload; response: Out<typeof contactSchema> },
  'GET /activity/logs': {} as { response: Out<typeof activityLogSchema>[] },
  'POST /activity/logs': {} as { body: In<typeof createActivityLogBody>; response: Out<typeof activityLogSchema> },
  'PATCH /activity/logs/:id': {} as { body: In<typeof updateActivityLogBody>; response: Out<typeof activityLogSchema> },
  'DELETE /activity/logs/:id': {} as NoContent,
  'GET /activity/stats': {} as { response: Out<typeof activityStatsSchema> },

  // cruise
  'GET /cruise/config': {} as { response: Out<typeof cruiseConfigSchema> },
  'GET /cruise/session': {} as { response: Out<typeof cruiseStatusSchema> },
  'POST /cruise/session': {} as { body: In<typeof startSessionBody>; response: Out<typeof cruiseStatusSchema> },
  'POST /cruise/session/end': {} as { response: Out<typeof cruiseStatusSchema> },
  'PUT /cruise/precision': {} as { body: In<typeof precisionBody>; response: Out<typeof cruiseStatusSchema> },
  'GET /cruise/nearby': {} as { query: QueryOf<typeof nearbyQuery>; response: Out<typeof nearbyPageSchema> },
  'GET /cruise/spots': {} as { response: Out<typeof spotListSchema> },
  'POST /cruise/spots': {} as { body: In<typeof spotProposalBody>; response: Out<typeof spotSchema> },
  'POST /cruise/spots/:id/checkin': {} as { body: In<typeof checkinBody>; response: Out<typeof spotSchema> },
  'DELETE /cruise/spots/:id/checkin': {} as { response: Out<typeof spotSchema> },
  'GET /cruise/events': {} as { response: Out<typeof eventListSchema> },
  'POST /cruise/events': {} as { body: In<typeof eventBody>; response: Out<typeof eventDetailSchema> },
  'GET /cruise/events/:id': {} as { response: Out<typeof eventDetailSchema> },
  'POST /cruise/events/:id/attend': {} as { response: Out<typeof eventDetailSchema> },
  'DELETE /cruise/events/:id/attend': {} as { response: Out<typeof eventDetailSchema> },
  'POST /cruise/events/:id/comments': {} as { body: In<typeof commentBody>; response: Out<typeof eventCommentSchema> },
  'POST /cruise/events/:id/cancel': {} as { response: Out<typeof eventDetailSchema> },

  // billing (modules/billing): the spec's payment calls, cards, the payment screen, feature flags
  'GET /billing': {} as { response: Out<typeof billingSummarySchema> },
  'POST /billing/cards': {} as {
    body: In<typeof addCardBody>;
    response: { cards: Out<typeof paymentMethodSchema>[]; error?: string };
  },
  'DELETE /billing/cards/:id': {} as { response: { cards: Out<typeof paymentMethodSchema>[] } },
  'POST /billing/cards/:id/default': {} as { response: { cards: Out<typeof paymentMethodSchema>[] } },
  'POST /payments/subscription': {} as { body: In<typeof subscriptionBody>; response: Out<typeof paymentAnswerSchema> },
  'POST /payments/one-time': {} as { body: In<typeof oneTimeBody>; response: Out<typeof paymentAnswerSchema> },
  'POST /subscriptions/:id/cancel': {} as { body: In<typeof cancelSubscriptionBody>; response: Out<typeof paymentAnswerSchema> },
  'POST /subscriptions/:id/reactivate': {} as { response: Out<typeof paymentAnswerSchema> },
  'PUT /subscriptions/:id': {} as { body: In<typeof updateSubscriptionBody>; response: Out<typeof paymentAnswerSchema> },
  'GET /subscriptions/:id': {} as { response: Out<typeof subscriptionSchema> },
  'GET /customers/:id/subscriptions': {} as { response: Out<typeof subscriptionListSchema> },
  'GET /features': {} as { response: Out<typeof featureFlagsSchema> },
  'POST /features/:id/use': {} as { response: Out<typeof featureUseSchema> },
} satisfies Record<`${Method} /${string}`, EndpointShape>;

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Endpoints = typeof endpoints;
export type Endpoint = keyof Endpoints;
