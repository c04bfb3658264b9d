import { z } from 'zod';
import { SPOT_KINDS, SPOT_STATUSES } from './cruise.ts';

/**
 * Staff review of the cruising spots members propose (spec section 2: locations,
 * locations/pending, locations/approved), under the staff gate:
 *   GET   /admin/locations?status&q&page          → adminSpotsPage (counts by status, the map's tiles)
 *   POST  /admin/locations/:id/approve {note?}    → adminSpot (locations.approve)
 *   POST  /admin/locations/:id/reject  {note}     → adminSpot (locations.approve)
 *   PATCH /admin/locations/:id {name?, kind?, description?, reason?} → adminSpot (locations.edit)
 * A spot is a public place, so staff see where it is; who proposed it is an account id only.
 */

/** Spots on one page of the staff list. */
export const ADMIN_SPOTS_PAGE = 50;

export const AdminSpotMessages = {
  notFound: 'Spot not found',
  alreadyApproved: 'This spot is already approved',
  alreadyRejected: 'This spot is already rejected',
  noteRequired: 'Say why the spot is rejected.',
  nothingToChange: 'Change the name, kind or description.',
} as const;

export const adminSpotsQuery = z.object({
  status: z.enum(SPOT_STATUSES, { error: `Status must be one of: ${SPOT_STATUSES.join(', ')}.` }).optional(),
  q: z.string().trim().max(80).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const adminSpotSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(SPOT_KINDS),
  description: z.string(),
  lat: z.number(),
  lng: z.number(),
  status: z.enum(SPOT_STATUSES),
  proposedBy: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  /** Staff's note of the last review (a rejection's reason). */
  reviewNote: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminSpot = z.infer<typeof adminSpotSchema>;

export const adminSpotsPageSchema = z.object({
  rows: z.array(adminSpotSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Every spot by status, whatever the filter: the overview's figures. */
  counts: z.object({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() }),
  /** The map's tiles, as the cruise map has them (null: markers on a plain background). */
  map: z.object({ tileUrl: z.string().nullable(), tileAttribution: z.string().nullable() }),
});
export type AdminSpotsPage = z.infer<typeof adminSpotsPageSchema>;

const note = z.string().trim().max(500, 'Keep the note under 500 characters.');

export const spotApproveBody = z.object({ note: note.optional() });
export const spotRejectBody = z.object({
  note: z
    .string({ error: AdminSpotMessages.noteRequired })
    .trim()
    .min(1, AdminSpotMessages.noteRequired)
    .max(500, 'Keep the note under 500 characters.'),
});
export const spotEditBody = z
  .object({
    name: z.string().trim().min(1, 'Name is required.').max(80, 'Name must be at most 80 characters.').optional(),
    kind: z.enum(SPOT_KINDS, { error: `Kind must be one of: ${SPOT_KINDS.join(', ')}.` }).optional(),
    description: z.string().trim().max(500, 'Description must be at most 500 characters.').optional(),
    reason: note.optional(),
  })
  .refine((b) => b.name !== undefined || b.kind !== undefined || b.description !== undefined, {
    message: AdminSpotMessages.nothingToChange,
  });
export type SpotEditBody = z.infer<typeof spotEditBody>;
