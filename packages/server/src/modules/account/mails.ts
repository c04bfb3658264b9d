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
