import type { StaffRole } from './tiers.ts';

/** A staff record as access checks need it: its role and whether it is active. */
export interface StaffRecord {
  role: StaffRole;
  isActive: boolean;
}

/**
 * Roles that manage prompts. Spec section 6 gives prompt create, update, delete, list-all and
 * analytics to "admins"; moderators' module list does not include prompts, so they are refused.
 */
export const PROMPT_MANAGER_ROLES: readonly StaffRole[] = ['owner', 'super_admin', 'admin'];

/** Whether a caller with this staff record (null: not staff) may manage prompts. Inactive staff may not. */
export function canManagePrompts(staff: StaffRecord | null): boolean {
  return staff?.isActive === true && PROMPT_MANAGER_ROLES.includes(staff.role);
}

/**
 * Roles that approve or reject proposed cruising spots. Spec section 6 gives "locations … approve"
 * to owner, super_admin (owner's set) and admin; moderators only view locations.
 */
export const LOCATION_MODERATOR_ROLES: readonly StaffRole[] = ['owner', 'super_admin', 'admin'];

/** Whether a caller with this staff record (null: not staff) may approve or reject spots. */
export function canModerateLocations(staff: StaffRecord | null): boolean {
  return staff?.isActive === true && LOCATION_MODERATOR_ROLES.includes(staff.role);
}

/**
 * Roles that read and answer bug reports, feedback and support threads: every staff role. Spec
 * section 6 gives moderators "reports view, edit", and member support is the same kind of work.
 */
export const SUPPORT_ROLES: readonly StaffRole[] = ['owner', 'super_admin', 'admin', 'moderator'];

/** Whether a caller with this staff record (null: not staff) may handle support. Inactive staff may not. */
export function canHandleSupport(staff: StaffRecord | null): boolean {
  return staff?.isActive === true && SUPPORT_ROLES.includes(staff.role);
}

/**
 * Roles that approve or reject held photos (moderation items): every staff role. Spec section 6
 * gives moderators content moderation; it is their first job.
 */
export const CONTENT_MODERATOR_ROLES: readonly StaffRole[] = ['owner', 'super_admin', 'admin', 'moderator'];

/** Whether a caller with this staff record (null: not staff) may decide moderation items. Inactive staff may not. */
export function canModerateContent(staff: StaffRecord | null): boolean {
  return staff?.isActive === true && CONTENT_MODERATOR_ROLES.includes(staff.role);
}

/**
 * Roles that review reports against members: every staff role. Spec section 6 gives owner,
 * admin and moderator "reports view, edit", and super_admin has the owner's set.
 */
export const REPORT_REVIEWER_ROLES: readonly StaffRole[] = ['owner', 'super_admin', 'admin', 'moderator'];

/**
 * Roles that configure subscriptions: the plans' feature flags and limits (issue 18). Spec section
 * 6 gives owner "subscriptions (including configure)" and super_admin the owner's set bar delete;
 * admin and moderator only view subscriptions.
 */
export const SUBSCRIPTION_CONFIG_ROLES: readonly StaffRole[] = ['owner', 'super_admin'];

/** Whether a caller with this staff record (null: not staff) may edit the feature flags. Inactive staff may not. */
export function canConfigureSubscriptions(staff: StaffRecord | null): boolean {
  return staff?.isActive === true && SUBSCRIPTION_CONFIG_ROLES.includes(staff.role);
}

/** Whether a caller with this staff record (null: not staff) may review reports. Inactive staff may not. */
export function canReviewReports(staff: StaffRecord | null): boolean {
  return staff?.isActive === true && REPORT_REVIEWER_ROLES.includes(staff.role);
}
