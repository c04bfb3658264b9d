import { type BanRecord, banNotice, type Clock, Messages } from '@fmk/core';
import type { Config } from '../../platform/config.ts';
import { AppError } from '../../platform/errors.ts';

// What identity's service takes and answers (service.ts re-exports them: other features import the service).

/** A banned email tried to register (or sign in). `message` is the notice shown to the person. */
export class EmailBannedError extends AppError {
  /** The service-level name of the refusal (spec section 8). */
  readonly reason: string = Messages.emailBanned;
  constructor(readonly ban: BanRecord) {
    super(403, 'email_banned', banNotice(ban));
  }
}

export type RegistrationSource = 'email' | 'google';

export interface NewUserInput {
  email: string;
  passwordHash: string | null;
  googleSub: string | null;
  source: RegistrationSource;
  /** The host the person signed up on, for beta eligibility (spec section 9). */
  host: string;
}

export interface BanInput {
  email: string;
  adminId: string;
  reason: string;
  permanent: boolean;
  expiresAt?: Date | null;
  ip?: string | null;
}

export interface AdminContext {
  adminId: string;
  reason: string;
  ip?: string | null;
}

export interface IdentityRecord {
  anonymousId: string;
  email: string;
  userId: string;
  isActive: boolean;
  previousEmails: string[];
  previousAnonymousIds: string[];
  registrationSource: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface IdentityServiceOptions {
  config: Pick<Config, 'emailHashKey' | 'betaPrivilegedHosts'>;
  clock: Clock;
  /** Anonymous id generator; injectable so exhaustion can be tested. */
  generateId?: () => string;
}
