import { type Actor, type ModerationDecision, type ModerationItem, ModerationMessages } from '@fmk/core';
import { requireAccess } from '../../platform/access.ts';
import { auditStaff, type StaffBy } from '../../platform/audit/repo.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { ModerationItemRow } from '../../platform/moderation/repo.ts';
import type { AppDeps } from '../../platform/module.ts';

/** Staff's side of photo moderation (admin.content.approve): the queue and the decisions. */
export class ModerationService {
  constructor(private readonly deps: Pick<AppDeps, 'moderation' | 'storage'>) {}

  async list(actor: Actor, status: ModerationItem['status']): Promise<ModerationItem[]> {
    requireAccess(actor, 'admin.content.approve');
    return (await this.deps.moderation.list(status)).map((r) => this.present(r));
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
    return this.present(result);
  }

  private present(r: ModerationItemRow): ModerationItem {
    return {
      id: r.id,
      contentType: r.content_type,
      contentId: r.content_id,
      userId: r.user_id,
      url: r.storage_key ? this.deps.storage.url(r.storage_key) : null,
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
