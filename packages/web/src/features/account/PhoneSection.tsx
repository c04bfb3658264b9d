import { normalizePhone, PhoneMessages, type PhoneStatus } from '@fmk/core';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { Pill } from '../../ui/Section.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { VerifiedBadge } from '../../ui/VerifiedBadge.tsx';
import { usePhoneQuery, useRemovePhone, useSendPhoneCode, useVerifyPhone } from './queries.ts';

// The hover darkens the border, not the background: the red text on a grey fill falls under 4.5:1.
const rowButton =
  'min-h-11 shrink-0 rounded-full border border-line px-4 text-sm font-semibold text-primary-strong hover:border-primary-strong disabled:opacity-50';

/** The field an answer's error names, else its message: shown under that field. */
const fieldError = (err: unknown, field: string, fallback: string): string | null => {
  if (!err) return null;
  if (err instanceof ApiError) return err.fields[field] ?? err.message;
  return errorMessage(err, fallback);
};

/** Seconds until `iso`, ticking each second while above zero. */
function useSecondsUntil(iso: string | null): number {
  const left = () => (iso ? Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 1000)) : 0);
  const [seconds, setSeconds] = useState(left);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `left` reads only `iso`.
  useEffect(() => {
    setSeconds(left());
    if (!iso) return;
    const timer = setInterval(() => {
      const s = left();
      setSeconds(s);
      if (s === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [iso]);
  return seconds;
}

/**
 * Hands over the code from the text itself where the browser offers it (WebOTP: Chrome on
 * Android reads the text's '@host #code' line and asks the person to allow it); elsewhere, or
 * refused, nothing happens and the code is typed.
 */
function useTextedCode(waiting: string | null, onCode: (code: string) => void): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: one ask per texted code; onCode is read when it answers.
  useEffect(() => {
    if (!waiting || !('OTPCredential' in window)) return;
    const abort = new AbortController();
    const options = { otp: { transport: ['sms'] }, signal: abort.signal } as CredentialRequestOptions;
    navigator.credentials
      .get(options)
      .then((cred) => {
        const code = (cred as { code?: unknown } | null)?.code;
        if (typeof code === 'string' && /^\d{6}$/.test(code)) onCode(code);
      })
      // Refused, timed out, or the form went away (aborted): the box still takes it typed.
      .catch(() => undefined);
    return () => abort.abort();
  }, [waiting]);
}

/**
 * Settings' phone: a number verified by a texted code earns the verified badge. The number is
 * the owner's alone (the server never gives it to anyone else), which the hint says, since a
 * person deciding whether to give it wants to know.
 */
export function PhoneSection() {
  const phone = usePhoneQuery();
  const [editing, setEditing] = useState(false);
  return (
    <div className="flex flex-col gap-2 border-t border-line py-2">
      <div className="flex min-h-12 flex-wrap items-center gap-x-3 gap-y-1">
        <div className="flex min-w-0 flex-1 flex-col">
          <span className="text-sm text-muted">Phone</span>
          <span className="text-base text-ink">{phone.data?.phone ?? (phone.data ? 'No number yet' : '\u00a0')}</span>
        </div>
        {phone.data?.verified ? <VerifiedBadge withLabel /> : phone.data?.phone ? <Pill tone="warn">Not verified</Pill> : null}
      </div>
      {phone.isPending ? (
        <p className="text-sm text-muted" aria-busy="true">
          Loading your phone number...
        </p>
      ) : phone.isError ? (
        <div className="flex flex-wrap items-center gap-2">
          <p role="alert" className="text-sm font-medium text-primary-strong">
            {errorMessage(phone.error, 'Could not load your phone number.')}
          </p>
          <button type="button" className={rowButton} onClick={() => void phone.refetch()}>
            Try again
          </button>
        </div>
      ) : editing || !phone.data.phone ? (
        <NumberForm
          current={phone.data.phone}
          onSent={() => setEditing(false)}
          onCancel={phone.data.phone ? () => setEditing(false) : undefined}
        />
      ) : phone.data.verified ? (
        <VerifiedActions onChange={() => setEditing(true)} />
      ) : (
        <CodeForm status={phone.data} onChange={() => setEditing(true)} />
      )}
    </div>
  );
}

function NumberForm({ current, onSent, onCancel }: { current: string | null; onSent: () => void; onCancel?: () => void }) {
  const send = useSendPhoneCode();
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The server's rule, checked here first so a typo costs no round trip; the server decides.
    const phone = normalizePhone(value);
    setInvalid(phone ? null : PhoneMessages.invalidNumber);
    if (phone) send.mutate(phone, { onSuccess: onSent });
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3">
      <TextField
        label={current ? 'New mobile number' : 'Mobile number'}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="+1 415 555 0123"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        hint="With + and the country code. We text you a code to verify it; no one else sees your number."
        error={invalid ?? fieldError(send.error, 'phone', 'Could not send the code. Please try again.')}
      />
      {current ? <p className="text-sm text-muted">A new number is unverified until you type the code we text to it.</p> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={send.isPending}>
          Text me a code
        </Button>
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function CodeForm({ status, onChange }: { status: PhoneStatus; onChange: () => void }) {
  const verify = useVerifyPhone();
  const resend = useSendPhoneCode();
  const [code, setCode] = useState('');
  const wait = useSecondsUntil(status.pending?.resendAt ?? null);
  const check = (value: string) => verify.mutate(value, { onError: () => setCode('') });
  useTextedCode(status.pending?.expiresAt ?? null, (texted) => {
    setCode(texted);
    check(texted);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    check(code.replace(/\s/g, ''));
  };
  const resendCode = () => {
    if (!status.phone) return;
    verify.reset();
    resend.mutate(status.phone);
  };
  return (
    <div className="flex flex-col gap-3">
      {status.pending ? (
        <form onSubmit={submit} noValidate className="flex flex-col gap-3">
          <TextField
            label="6-digit code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
            hint={`We texted a code to ${status.phone}. It works for 10 minutes.`}
            error={fieldError(verify.error, 'code', 'Could not check the code. Please try again.')}
            className="tracking-[0.3em]"
          />
          <Button type="submit" loading={verify.isPending} disabled={code.length !== 6}>
            Verify
          </Button>
        </form>
      ) : (
        <p className="text-sm text-muted">Send a code to verify this number.</p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={rowButton} disabled={wait > 0 || resend.isPending} onClick={resendCode}>
          {resend.isPending
            ? 'Sending...'
            : wait > 0
              ? `Resend code in ${wait} s`
              : status.pending
                ? 'Resend code'
                : 'Send a new code'}
        </button>
        <button type="button" className={rowButton} onClick={onChange}>
          Change number
        </button>
        <RemoveButton />
      </div>
      {resend.isSuccess ? (
        <p role="status" className="text-sm text-muted">
          We sent a new code.
        </p>
      ) : null}
      {resend.isError ? (
        <p role="alert" className="text-sm font-medium text-primary-strong">
          {errorMessage(resend.error, 'Could not send the code. Please try again.')}
        </p>
      ) : null}
    </div>
  );
}

function VerifiedActions({ onChange }: { onChange: () => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" className={rowButton} onClick={onChange}>
        Change number
      </button>
      <RemoveButton />
    </div>
  );
}

function RemoveButton() {
  const remove = useRemovePhone();
  return (
    <>
      <button type="button" className={rowButton} disabled={remove.isPending} onClick={() => remove.mutate(undefined)}>
        Remove number
      </button>
      {remove.isError ? (
        <p role="alert" className="w-full text-sm font-medium text-primary-strong">
          {errorMessage(remove.error, 'Could not remove the number. Please try again.')}
        </p>
      ) : null}
    </>
  );
}
