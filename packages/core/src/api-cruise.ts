import { z } from 'zod';
import {
  CHECKIN_MINUTES,
  EVENT_DURATION_MINUTES,
  EVENT_STATUSES,
  NEARBY_MAX_RADIUS_KM,
  NEARBY_RADIUS_KM,
  SPOT_KINDS,
  SPOT_STATUSES,
} from './cruise.ts';
import { locationBody } from './discovery.ts';
import { cardPhotoFilterFields } from './photo-filter.ts';

/**
 * The cruise contract, under /api/v1/cruise. Other users' positions come down only as
 * 500 m cell centres (core geo.ts), never raw coordinates; distances as the grid's labels.
 *   GET  /cruise/config                                   → cruiseConfig (map tiles)
 *   GET  /cruise/session                                  → cruiseStatus
 *   POST /cruise/session        startSessionBody          → cruiseStatus (403 limit_reached: upgrade text)
 *   POST /cruise/session/end                              → cruiseStatus
 *   PUT  /cruise/precision      precisionBody             → cruiseStatus
 *   GET  /cruise/nearby?radiusKm&limit                    → nearbyPage
 *   GET  /cruise/spots                                    → spotList (approved near me + my proposals)
 *   POST /cruise/spots          spotProposalBody          → spot (pending)
 *   POST /cruise/spots/:id/checkin {minutes}  DELETE …    → spot
 *   GET  /cruise/events                                   → eventSummary[] (upcoming near me)
 *   POST /cruise/events         eventBody                 → eventDetail
 *   GET  /cruise/events/:id                               → eventDetail
 *   POST|DELETE /cruise/events/:id/attend                 → eventDetail
 *   POST /cruise/events/:id/comments {body}               → eventComment
 *   POST /cruise/events/:id/cancel                        → eventDetail (creator only)
 * Staff review proposed spots in the admin area (api-admin-locations.ts), never here.
 */
export const cruiseConfigSchema = z.object({
  /** A Leaflet tile URL template, or null: the map then draws on a plain background. */
  tileUrl: z.string().nullable(),
  tileAttribution: z.string().nullable(),
});
export type CruiseConfig = z.infer<typeof cruiseConfigSchema>;

export const precisionBody = z.object({
  locationPrecision: z.enum(['exact', 'approximate'], { error: 'Location precision must be exact or approximate.' }),
});
export type PrecisionBody = z.infer<typeof precisionBody>;

export const startSessionBody = z.object({
  /** "What I'm up for": shown with the now profile while the session runs (Right Now). */
  rightNow: z.string().trim().max(140, 'Keep it under 140 characters.').optional(),
});
export type StartSessionBody = z.infer<typeof startSessionBody>;

export const cruiseSessionSchema = z.object({
  id: z.string(),
  startedAt: z.string(),
  endsAt: z.string(),
  rightNow: z.string().nullable(),
});
export type CruiseSession = z.infer<typeof cruiseSessionSchema>;

export const cruiseStatusSchema = z.object({
  /** The running session, or null. */
  session: cruiseSessionSchema.nullable(),
  period: z.enum(['day', 'week']),
  /** Null for a week not begun (free: the week starts with its first session). */
  periodEndsAt: z.string().nullable(),
  sessionsThisPeriod: z.number().int(),
  minutesThisPeriod: z.number().int(),
  totalSessions: z.number().int(),
  totalMinutes: z.number().int(),
  /** Sessions left to start in this period; -1 unlimited. */
  sessionsLeft: z.number().int(),
  /** When the next session may start, when the quota is used up. */
  nextStartAt: z.string().nullable(),
  /** The upgrade prompt when the quota is used up. */
  upsell: z.string().nullable(),
  /** The server's clock, so a countdown does not depend on the phone's clock being right. */
  serverTime: z.string(),
  /**
   * What others see of my position while I cruise: exact = my 500 m area pinned on their map;
   * approximate = listed with a distance only, no pin. Never finer than the cell either way.
   */
  locationPrecision: z.enum(['exact', 'approximate']),
});
export type CruiseStatus = z.infer<typeof cruiseStatusSchema>;

const intParam = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const nearbyQuery = z.object({
  radiusKm: z.coerce
    .number({ error: 'radiusKm must be a number.' })
    .min(1, 'radiusKm must be between 1 and 50.')
    .max(NEARBY_MAX_RADIUS_KM, 'radiusKm must be between 1 and 50.')
    .default(NEARBY_RADIUS_KM),
  limit: intParam(1, 100).default(50),
});
export type NearbyQuery = z.infer<typeof nearbyQuery>;

/** A map position: for another man always his place (core placeCentre: the centre of his own 1 km square), never his cell. */
export const mapPointSchema = z.object({ lat: z.number(), lng: z.number() });

export const nearbyCruiserSchema = z.object({
  uid: z.string(),
  displayName: z.string().nullable(),
  age: z.number().int().nullable(),
  photoURL: z.string().nullable(),
  ...cardPhotoFilterFields,
  /** Bucketed like the grid ('< 1 km', '3 km'…), from the viewer's cell centre to his place; null when he does not share it. */
  distance: z.string().nullable(),
  /** His place (never his cell); null when he chose approximate precision (listed, not pinned). */
  cell: mapPointSchema.nullable(),
  position: z.string().nullable(),
  lookingFor: z.array(z.string()),
  rightNow: z.string().nullable(),
  /** His verified badge (phone.ts). */
  verified: z.boolean(),
  endsAt: z.string(),
});
export type NearbyCruiser = z.infer<typeof nearbyCruiserSchema>;

export const nearbyPageSchema = z.object({
  items: z.array(nearbyCruiserSchema),
  /** False until the viewer has shared a fresh location: the list is then empty. */
  hasLocation: z.boolean(),
  /** The viewer's own cell centre (what others see of him), for the map's centre. */
  me: mapPointSchema.nullable(),
  radiusKm: z.number(),
});
export type NearbyPage = z.infer<typeof nearbyPageSchema>;

const text = (max: number, label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

export const spotProposalBody = z.object({
  name: text(80, 'Name'),
  kind: z.enum(SPOT_KINDS, { error: `Kind must be one of: ${SPOT_KINDS.join(', ')}.` }),
  description: z.string().trim().max(500, 'Description must be at most 500 characters.').default(''),
  lat: locationBody.shape.lat,
  lng: locationBody.shape.lng,
});
export type SpotProposalBody = z.infer<typeof spotProposalBody>;

export const spotSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(SPOT_KINDS),
  description: z.string(),
  lat: z.number(),
  lng: z.number(),
  status: z.enum(SPOT_STATUSES),
  /** Distance label from the viewer's cell; null without a location. */
  distance: z.string().nullable(),
  /** People checked in now: only from 3 (else null, "fewer than 3"), never who. */
  checkins: z.number().int().nullable(),
  /** Until when the viewer is checked in here, or null. */
  myCheckinUntil: z.string().nullable(),
  mine: z.boolean(),
  createdAt: z.string(),
});
export type Spot = z.infer<typeof spotSchema>;
export const spotListSchema = z.object({ items: z.array(spotSchema), hasLocation: z.boolean() });
export type SpotList = z.infer<typeof spotListSchema>;

export const checkinBody = z.object({
  minutes: intParam(CHECKIN_MINUTES.min, CHECKIN_MINUTES.max).default(CHECKIN_MINUTES.default),
});
export const idParams = z.object({ id: z.string().min(1).max(64) });

export const eventBody = z
  .object({
    title: text(80, 'Title'),
    description: z.string().trim().max(1000, 'Description must be at most 1000 characters.').default(''),
    spotId: z.string().min(1).max(64).optional(),
    place: z
      .object({
        name: text(80, 'Place name'),
        lat: locationBody.shape.lat,
        lng: locationBody.shape.lng,
      })
      .optional(),
    startsAt: z.iso.datetime({ offset: true, error: 'Start time must be a date and time.' }),
    durationMinutes: intParam(EVENT_DURATION_MINUTES.min, EVENT_DURATION_MINUTES.max).default(EVENT_DURATION_MINUTES.default),
  })
  .refine((b) => Boolean(b.spotId) !== Boolean(b.place), {
    message: 'Choose either a spot or a place for the event.',
    path: ['place'],
  });
export type EventBody = z.infer<typeof eventBody>;

export const eventSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  placeName: z.string(),
  spotId: z.string().nullable(),
  lat: z.number(),
  lng: z.number(),
  distance: z.string().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.enum(EVENT_STATUSES),
  attendees: z.number().int(),
  attending: z.boolean(),
  mine: z.boolean(),
  creator: z.object({
    uid: z.string(),
    displayName: z.string().nullable(),
    photoURL: z.string().nullable(),
    ...cardPhotoFilterFields,
  }),
});
export type EventSummary = z.infer<typeof eventSummarySchema>;

export const eventCommentSchema = z.object({
  id: z.string(),
  body: z.string(),
  createdAt: z.string(),
  author: z.object({
    uid: z.string(),
    displayName: z.string().nullable(),
    photoURL: z.string().nullable(),
    ...cardPhotoFilterFields,
  }),
});
export type EventComment = z.infer<typeof eventCommentSchema>;

export const eventDetailSchema = eventSummarySchema.extend({ comments: z.array(eventCommentSchema) });
export type EventDetail = z.infer<typeof eventDetailSchema>;
export const eventListSchema = z.object({ items: z.array(eventSummarySchema), hasLocation: z.boolean() });
export type EventList = z.infer<typeof eventListSchema>;

export const commentBody = z.object({ body: text(500, 'Comment') });
