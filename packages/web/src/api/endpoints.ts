import type {
  acceptCallBody,
  accountNoticeSchema,
  activityLogSchema,
  activityStatsSchema,
  addCardBody,
  alertSchema,
  alertStateBody,
  authResultSchema,
  badgesSchema,
  billingSummarySchema,
  blockedUserSchema,
  boostPurchaseBody,
  boostStatusSchema,
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
  likesPageSchema,
  linkTokenBody,
  locationBody,
  locationConsentBody,
  matchSchema,
  medicationLogSchema,
  medicationSchema,
  meetupCheckinBody,
  meetupCheckinSchema,
  meSchema,
  messagePageSchema,
  messageSchema,
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
  photoUrlSchema,
  plansSchema,
  precisionBody,
  promptLikeResultSchema,
  promptSchema,
  publicConfigSchema,
  publicProfileSchema,
  pushSubscriptionBody,
  readBody,
  redirectResultBody,
  reportScreenshotSchema,
  resetPasswordBody,
  safetyContactBody,
  safetyContactSchema,
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
  startCallBody,
  startSessionBody,
  subscriptionBody,
  subscriptionListSchema,
  subscriptionSchema,
  supportMessageBody,
  takenBody,
  threadDetailSchema,
  threadSchema,
  typingBody,
  updateActivityLogBody,
  updateContactBody,
  updateMeBody,
  updateMedicationBody,
  updateSubscriptionBody,
  userReportSchema,
  verifyPhoneBody,
} from '@fmk/core';
import type { In, NoContent, Out, QueryOf } from './endpoint-types.ts';
import { staffEndpoints } from './endpoints-staff.ts';

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

/** One route's shape; a route without `response` answers 204, one without `body` reads none. */
export interface EndpointShape {
  body?: unknown;
  query?: unknown;
  response?: unknown;
}

// Upload routes take multipart form data (a "file" field); the server re-encodes the image.
type Upload = FormData;

export const endpoints = {
  // Staff (the admin area, its own session): endpoints-staff.ts
  ...staffEndpoints,
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
  'GET /messages/:id/photo-url': {} as { params: { id: string }; response: Out<typeof photoUrlSchema> },

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
  'GET /me/safety-contact': {} as { response: Out<typeof safetyContactSchema> | null },
  'PUT /me/safety-contact': {} as { body: In<typeof safetyContactBody>; response: Out<typeof safetyContactSchema> },
  'GET /me/checkins': {} as { response: Out<typeof meetupCheckinSchema>[] },
  'POST /me/checkins': {} as { body: In<typeof meetupCheckinBody>; response: Out<typeof meetupCheckinSchema> },
  'POST /me/checkins/:id/done': {} as { response: Out<typeof meetupCheckinSchema> },
  'POST /me/checkins/:id/cancel': {} as { response: Out<typeof meetupCheckinSchema> },

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
  'GET /plans': {} as { response: Out<typeof plansSchema> },
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

  // boost (modules/boost): Platinum's 30 minutes first in nearby grids, and extra boosts bought
  'GET /boost': {} as { response: Out<typeof boostStatusSchema> },
  'POST /boost': {} as { response: Out<typeof boostStatusSchema> },
  'POST /boost/purchase': {} as { body: In<typeof boostPurchaseBody>; response: Out<typeof paymentAnswerSchema> },
} satisfies Record<`${Method} /${string}`, EndpointShape>;

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Endpoints = typeof endpoints;
export type Endpoint = keyof Endpoints;
