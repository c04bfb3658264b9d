import {
  type Actor,
  MODERATION_PAGE,
  type ModerationDecision,
  type ModerationItem,
  ModerationMessages,
  type ModerationPage,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import { auditStaff, type StaffBy } from '../../platform/audit/repo.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { ModerationItemRow } from '../../platform/moderation/repo.ts';
import type { AppDeps } from '../../platform/module.ts';
import { readObject } from '../../platform/storage.ts';
import { reportedChatPhoto, reportedChatPhotos } from '../safety/service.ts';

/** Where staff open an item's photo that is not public (a reported chat photo), under /api/v1. */
const itemPhotoPath = (id: string) => `/admin/moderation/items/${id}/photo`;

/**
 * Staff's side of photo moderation: the queue (admin.content.view) and the decisions
 * (admin.content.approve). A profile photo is shown at its public address; a chat photo is private
 * to its conversation, so staff see it only when a report holds it as evidence, through the
 * staff-only GET /admin/moderation/items/:id/photo, and never otherwise.
 */
export class ModerationService {
  constructor(private readonly deps: Pick<AppDeps, 'moderation' | 'storage'> & { db: Db }) {}

  /** A page of a queue (MODERATION_PAGE items), with the queue's count. */
  async list(actor: Actor, status: ModerationItem['status'], page: number): Promise<ModerationPage> {
    requireAccess(actor, 'admin.content.view');
    const { rows, total } = await this.deps.moderation.list(status, {
      limit: MODERATION_PAGE,
      offset: (page - 1) * MODERATION_PAGE,
    });
    const chat = rows.filter((r) => r.content_type === 'chat_photo').map((r) => r.content_id);
    const reported = await reportedChatPhotos(this.deps.db, chat);
    return { rows: rows.map((r) => this.present(r, reported)), total, page, pageSize: MODERATION_PAGE };
  }

  /** An item's photo for staff: a profile photo's file, or a chat photo only when it was reported (403 otherwise). */
  async photo(actor: Actor, itemId: string): Promise<Buffer> {
    requireAccess(actor, 'admin.content.view');
    const item = await this.deps.moderation.item(itemId);
    if (!item) throw notFound(ModerationMessages.itemNotFound);
    if (item.content_type === 'chat_photo') return reportedChatPhoto(this.deps.db, this.deps.storage, item.content_id);
    const bytes = item.storage_key ? await readObject(this.deps.storage, item.storage_key) : null;
    if (!bytes) throw notFound(ModerationMessages.photoRemoved);
    return bytes;
  }

  /** Approves or rejects a pending item; its audit row commits with the decision. */
  async decide(
    actor: Actor,
    itemId: string,
    decision: ModerationDecision,
    notes: string | undefined,
    by: StaffBy,
  ): Promise<ModerationItem> {
    requireAccess(actor, 'admin.content.approve');
    const result = await this.deps.moderation.decide(itemId, actor.id, decision, notes || null, (trx, now) =>
      auditStaff(trx, by, {
        action: `content_${decision}`,
        targetType: 'moderation_item',
        targetId: itemId,
        reason: notes || `photo ${decision === 'approve' ? 'approved' : 'rejected'}`,
        now,
      }),
    );
    if (result === null) throw notFound(ModerationMessages.itemNotFound);
    if (result === 'decided') throw conflict(ModerationMessages.alreadyDecided);
    const reported = await reportedChatPhotos(this.deps.db, result.content_type === 'chat_photo' ? [result.content_id] : []);
    return this.present(result, reported);
  }

  private present(r: ModerationItemRow, reported: Set<string>): ModerationItem {
    const chat = r.content_type === 'chat_photo';
    return {
      id: r.id,
      contentType: r.content_type,
      contentId: r.content_id,
      userId: r.user_id,
      // A chat photo never has a public address (GET /files/ does not serve chat/).
      url: r.storage_key && !chat ? this.deps.storage.url(r.storage_key) : null,
      photoPath: r.storage_key && chat && reported.has(r.content_id) ? itemPhotoPath(r.id) : null,
      reported: chat ? reported.has(r.content_id) : null,
      status: r.status,
      flaggedReason: r.flagged_reason,
      confidence: r.confidence,
      aiAnalysis: r.ai_analysis,
      moderatorId: r.moderator_id,
      moderatorNotes: r.moderator_notes,
      timestamp: r.created_at.toISOString(),
      reviewedAt: r.reviewed_at?.toISOString() ?? null,
    };
  }
}
