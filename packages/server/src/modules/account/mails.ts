import { composeMail } from '../../platform/mail/layout.ts';
import type { Mail } from '../../platform/mail/types.ts';

// The account's mails: short, plain, in the app's voice. A subject is what a lock screen shows,
// so it says what the mail is for and never what the app is for, nor anything about health.

export function confirmEmailMail(to: string, url: string): Mail {
  return composeMail(to, {
    subject: 'Confirm your email',
    paragraphs: ['Hi,', 'Tap the button to confirm this is your email address. It keeps your account yours.'],
    action: { label: 'Confirm email', url },
    footer: ["The link works once, for 24 hours. Didn't sign up? Ignore this email and nothing happens."],
  });
}

export function resetPasswordMail(to: string, url: string): Mail {
  return composeMail(to, {
    subject: 'Reset your password',
    paragraphs: [
      'Hi,',
      'Someone asked to reset the password of the account with this email address. If that was you, choose a new one:',
    ],
    action: { label: 'Choose a new password', url },
    footer: ["The link works once, for 30 minutes. Wasn't you? Ignore this email: your password stays as it is."],
  });
}

/** After a reset or a change: the owner hears of it, in case it was not him. */
export function passwordChangedMail(to: string, resetUrl: string): Mail {
  return composeMail(to, {
    subject: 'Your password was changed',
    paragraphs: [
      'Hi,',
      'The password of your account was just changed, and your other devices were signed out.',
      "If that wasn't you, reset your password now:",
    ],
    action: { label: 'Reset password', url: resetUrl },
  });
}

export function confirmNewEmailMail(to: string, url: string): Mail {
  return composeMail(to, {
    subject: 'Confirm your new email',
    paragraphs: ['Hi,', 'Tap the button to make this the email address of your account. Until you do, nothing changes.'],
    action: { label: 'Confirm new email', url },
    footer: ["The link works once, for 24 hours. Didn't ask for this? Ignore this email and nothing happens."],
  });
}

/** To the old address, once the new one took over. */
export function emailChangedMail(to: string, newEmail: string): Mail {
  return composeMail(to, {
    subject: 'Your email address was changed',
    paragraphs: [
      'Hi,',
      `The email address of your account was changed to ${newEmail}. Sign in with that address from now on.`,
      'This address gets no more mail about the account.',
    ],
  });
}

/** 'Download my data' is done: the archive waits in settings, for its owner signed in, for a day. */
export function dataReadyMail(to: string, url: string): Mail {
  return composeMail(to, {
    subject: 'Your data is ready',
    paragraphs: ['Hi,', 'The copy of your data you asked for is ready. Sign in and download it from your settings.'],
    action: { label: 'Open settings', url },
    footer: ["It can be downloaded for 24 hours, then it is deleted. Didn't ask for it? Change your password."],
  });
}

/** The last mail to the address: the account is gone, so the person knows it was done. */
export function accountDeletedMail(to: string): Mail {
  return composeMail(to, {
    subject: 'Your account was deleted',
    paragraphs: [
      'Hi,',
      'Your account and everything in it were deleted, as you asked: profile, photos, messages and the rest.',
      'This is the last email you get from us.',
    ],
  });
}
