import type { Me } from '@fmk/core';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { Pill } from '../../ui/Section.tsx';
import { ChangeEmailSheet } from './ChangeEmailSheet.tsx';
import { ChangePasswordSheet } from './ChangePasswordSheet.tsx';
import { DataExportPanel } from './DataExportPanel.tsx';
import { DeleteAccountSheet } from './DeleteAccountSheet.tsx';
import { PhoneSection } from './PhoneSection.tsx';
import { useCancelEmailChange, useResendVerification } from './queries.ts';

const rowButton =
  'min-h-11 shrink-0 rounded-full border border-line px-4 text-sm font-semibold text-primary-strong hover:border-primary-strong';

/**
 * Settings' account block: the address, whether it is confirmed ('Resend' while it is not), a
 * change of address waiting for its link, changing the address or the password; the phone
 * number and its verification (PhoneSection); downloading everything kept about the account,
 * and deleting it.
 */
export function AccountSection({ user }: { user: Me }) {
  const resend = useResendVerification();
  const cancel = useCancelEmailChange();
  const [sheet, setSheet] = useState<'email' | 'password' | 'delete' | null>(null);
  return (
    <section aria-labelledby="account-heading" className="flex flex-col rounded-2xl border border-line bg-white px-4 py-3">
      <h2 id="account-heading" className="text-sm font-semibold text-ink">
        Account
      </h2>
      <div className="flex min-h-14 flex-wrap items-center gap-x-3 gap-y-1 py-2">
        <div className="flex min-w-0 flex-1 flex-col">
          <span className="text-sm text-muted">Email</span>
          <span className="break-all text-base text-ink">{user.email}</span>
        </div>
        {user.emailVerified ? <Pill tone="good">Confirmed</Pill> : <Pill tone="warn">Not confirmed</Pill>}
      </div>
      {user.emailVerified ? null : (
        <div className="flex flex-col gap-2 pb-2">
          {resend.isSuccess ? (
            <p role="status" className="text-sm text-muted">
              We sent a new link. Check your inbox (and spam).
            </p>
          ) : (
            <button
              type="button"
              onClick={() => resend.mutate()}
              disabled={resend.isPending}
              className="min-h-11 self-start rounded-full border border-line px-4 text-sm font-semibold text-primary-strong hover:border-primary-strong disabled:opacity-50"
            >
              {resend.isPending ? 'Sending...' : 'Resend confirmation link'}
            </button>
          )}
          {resend.isError ? (
            <p role="alert" className="text-sm font-medium text-primary-strong">
              {errorMessage(resend.error, 'Could not send the link. Please try again.')}
            </p>
          ) : null}
        </div>
      )}
      {user.pendingEmail ? (
        <div className="mb-2 flex flex-col gap-2 rounded-xl bg-canvas p-3">
          <p className="text-sm text-ink">
            Open the link we sent to <span className="font-semibold break-all">{user.pendingEmail}</span> to make it your email.
            Until then, nothing changes.
          </p>
          <button
            type="button"
            className={`${rowButton} self-start bg-white disabled:opacity-50`}
            disabled={cancel.isPending}
            onClick={() => cancel.mutate()}
          >
            Cancel change
          </button>
          {cancel.isError ? (
            <p role="alert" className="text-sm font-semibold text-ink">
              {errorMessage(cancel.error, 'Could not cancel. Please try again.')}
            </p>
          ) : null}
        </div>
      ) : null}
      <button type="button" className={`${rowButton} mb-2 self-start`} onClick={() => setSheet('email')}>
        Change email
      </button>
      <PhoneSection />
      <div className="flex min-h-14 items-center gap-3 border-t border-line pt-2">
        <div className="flex flex-1 flex-col">
          <span className="text-sm text-muted">Password</span>
          <span className="text-base text-ink" aria-hidden="true">
            ••••••••
          </span>
        </div>
        <button type="button" className={rowButton} onClick={() => setSheet('password')}>
          Change password
        </button>
      </div>
      <DataExportPanel />
      <div className="flex flex-col gap-2 border-t border-line pt-3">
        <div className="flex flex-col">
          <h3 className="text-base font-semibold text-ink">Delete account</h3>
          <p className="text-sm text-muted">Erase your account and everything in it, for good.</p>
        </div>
        <button
          type="button"
          className="min-h-11 self-start rounded-full border border-primary-strong px-4 text-sm font-semibold text-primary-strong hover:bg-primary-soft"
          onClick={() => setSheet('delete')}
        >
          Delete account
        </button>
      </div>
      <ChangeEmailSheet open={sheet === 'email'} onClose={() => setSheet(null)} />
      <ChangePasswordSheet open={sheet === 'password'} onClose={() => setSheet(null)} />
      <DeleteAccountSheet open={sheet === 'delete'} onClose={() => setSheet(null)} />
    </section>
  );
}
