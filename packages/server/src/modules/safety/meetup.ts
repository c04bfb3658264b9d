import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type Clock,
  containsSafeWord,
  type MeetupCheckin,
  type MeetupCheckinBody,
  MeetupMessages,
  type SafetyContact,
  type SafetyContactBody,
  validCheckinTimes,
} from '@fmk/core';
import type { Db } from '../../db/index.ts';
import { requireAccess } from '../../platform/access.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import { composeMail } from '../../platform/mail/layout.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { settingsOf } from '../settings/service.ts';
import type { RaiseAlert } from './alerts.ts';
import * as repo from './repo/meetup.ts';

export interface MeetupDeps {
  db: Db;
  clock: Clock;
  mail: Pick<Mailer, 'send'>;
  raise: (userId: string, alert: RaiseAlert) => Promise<unknown>;
  log?: { warn(obj: object, msg: string): void };
}

const OWN_LIST = 50;
const SWEEP_BATCH = 200;
/** How often the sweeper looks for check-ins past their time. */
export const CHECKIN_SWEEP_MS = 30_000;

const when = (d: Date) =>
  `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(d)} UTC`;

function present(r: repo.CheckinRow): MeetupCheckin {
  return {
    id: r.id,
    meetingWho: r.meeting_who,
    place: r.place,
    startsAt: r.starts_at.toISOString(),
    checkInBy: r.check_in_by.toISOString(),
    status: r.status,
    contactTold: r.contact_told,
    createdAt: r.created_at.toISOString(),
  };
}

/**
 * Meetup safety (spec meetupSafety): his trusted contact and safe word, meetup
 * check-ins shared with the contact (friendNotificationEnabled) and, when he does not check in by
 * the time he set, an email to the contact with who, where and when (emergencyContactEnabled);
 * his safe word in any chat (safeWordEnabled) raises a high alert and emails the contact.
 */
export class MeetupService {
  constructor(private readonly deps: MeetupDeps) {}

  async contact(actor: Actor): Promise<SafetyContact | null> {
    requireAccess(actor, 'support.use');
    const c = await repo.findContact(this.deps.db, actor.id);
    return c ? { name: c.name, email: c.email, safeWord: c.safe_word } : null;
  }

  async setContact(actor: Actor, body: SafetyContactBody): Promise<SafetyContact> {
    requireAccess(actor, 'support.use');
    await repo.saveContact(this.deps.db, {
      user_id: actor.id,
      name: body.name,
      email: body.email,
      safe_word: body.safeWord,
      updated_at: this.deps.clock.now(),
    });
    return { name: body.name, email: body.email, safeWord: body.safeWord };
  }

  async list(actor: Actor): Promise<MeetupCheckin[]> {
    requireAccess(actor, 'support.use');
    return (await repo.listCheckinsOf(this.deps.db, actor.id, OWN_LIST)).map(present);
  }

  /** A check-in: needs a contact and emergencyContactEnabled or friendNotificationEnabled. */
  async create(actor: Actor, body: MeetupCheckinBody): Promise<MeetupCheckin> {
    requireAccess(actor, 'support.use');
    const meetup = actor.userSettings.safety.meetupSafety;
    if (!meetup.emergencyContactEnabled && !meetup.friendNotificationEnabled) throw forbidden(MeetupMessages.checkinsOff);
    const now = this.deps.clock.now();
    const startsAt = new Date(body.startsAt);
    const checkInBy = new Date(body.checkInBy);
    if (!validCheckinTimes(startsAt, checkInBy, now)) throw badRequest(MeetupMessages.badTimes, { checkInBy: 'out of range' });
    const contact = await repo.findContact(this.deps.db, actor.id);
    if (!contact) throw badRequest(MeetupMessages.contactRequired, { contact: 'missing' });
    const id = randomUUID();
    const tell = meetup.friendNotificationEnabled;
    await repo.insertCheckin(this.deps.db, {
      id,
      user_id: actor.id,
      meeting_who: body.meetingWho,
      place: body.place,
      starts_at: startsAt,
      check_in_by: checkInBy,
      contact_told: tell,
      created_at: now,
    });
    if (tell) {
      const name = (await repo.displayNameOf(this.deps.db, actor.id)) ?? 'Your friend';
      this.deps.mail.send(
        composeMail(contact.email, {
          subject: `${name} shared a meetup with you`,
          paragraphs: [
            `Hi ${contact.name}, ${name} added you as a trusted contact on FMK and is meeting someone.`,
            `Who: ${body.meetingWho}`,
            `Where: ${body.place}`,
            `When: ${when(startsAt)}`,
            `${name} plans to check in by ${when(checkInBy)}. If not, we will email you again.`,
          ],
        }),
      );
    }
    return present((await repo.findCheckin(this.deps.db, id))!);
  }

  /** He is fine (checked_in) or the meetup is off (cancelled): the contact hears nothing more. */
  async close(actor: Actor, id: string, status: 'checked_in' | 'cancelled'): Promise<MeetupCheckin> {
    requireAccess(actor, 'support.use');
    const row = await repo.findCheckin(this.deps.db, id);
    if (!row || row.user_id !== actor.id) throw notFound(MeetupMessages.notFound);
    if (row.status === status) return present(row);
    if (!(await repo.closeCheckin(this.deps.db, id, status))) throw conflict(MeetupMessages.notActive);
    return present((await repo.findCheckin(this.deps.db, id))!);
  }

  /** One pass: every active check-in past its time becomes overdue and its contact gets the details. */
  async sweep(): Promise<number> {
    const now = this.deps.clock.now();
    let total = 0;
    for (;;) {
      const taken = await repo.takeOverdue(this.deps.db, now, SWEEP_BATCH);
      for (const c of taken) {
        const p = c.person;
        if (!p?.contact_email) continue;
        const name = p.display_name ?? 'Your friend';
        this.deps.mail.send(
          composeMail(p.contact_email, {
            subject: `${name} has not checked in after a meetup`,
            paragraphs: [
              `Hi ${p.contact_name ?? ''}, ${name} asked us to tell you if they did not check in after a meetup, and they have not.`,
              `Who: ${c.meeting_who}`,
              `Where: ${c.place}`,
              `When: ${when(c.starts_at)}`,
              `Check-in was due by ${when(c.check_in_by)}. Please try to reach ${name}. If you think they are in danger, call the emergency services.`,
            ],
          }),
        );
        await this.deps.raise(c.user_id, {
          type: 'safety_reminder',
          severity: 'high',
          title: 'You missed your check-in',
          message: `You didn't check in after meeting ${c.meeting_who}, so we emailed your trusted contact. Let them know you're OK.`,
          contentId: c.id,
          dedupeKey: `checkin:${c.id}`,
        });
      }
      total += taken.length;
      if (taken.length < SWEEP_BATCH) return total;
    }
  }

  /**
   * After a message is sent: his safe word (safeWordEnabled and a word set) raises a high alert
   * for him and emails his contact. Never fails the send.
   */
  async screenSafeWord(msg: { id: string; senderId: string; text: string }): Promise<void> {
    try {
      const contact = await repo.findContact(this.deps.db, msg.senderId);
      if (!contact?.safe_word || !containsSafeWord(msg.text, contact.safe_word)) return;
      const settings = await settingsOf(this.deps.db, msg.senderId);
      if (!settings?.safety.meetupSafety.safeWordEnabled) return;
      const name = (await repo.displayNameOf(this.deps.db, msg.senderId)) ?? 'Your friend';
      const open = (await repo.listCheckinsOf(this.deps.db, msg.senderId, 1)).find((c) => c.status === 'active');
      this.deps.mail.send(
        composeMail(contact.email, {
          subject: `${name} sent their safe word`,
          paragraphs: [
            `Hi ${contact.name}, ${name} just sent the safe word they agreed with you in a chat on FMK, at ${when(this.deps.clock.now())}.`,
            ...(open ? [`They were meeting ${open.meeting_who} at ${open.place}, from ${when(open.starts_at)}.`] : []),
            `Please try to reach ${name} now. If you think they are in danger, call the emergency services.`,
          ],
        }),
      );
      await this.deps.raise(msg.senderId, {
        type: 'safety_reminder',
        severity: 'high',
        title: 'Safe word sent',
        message: `We emailed ${contact.name} that you sent your safe word. If you are in danger, call the emergency services.`,
        contentId: msg.id,
        dedupeKey: `safeword:${msg.id}`,
      });
    } catch (err) {
      this.deps.log?.warn({ err }, 'safe word screening failed');
    }
  }
}
