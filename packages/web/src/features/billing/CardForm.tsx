import { BillingMessages, type BillingSummary } from '@fmk/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { loadSquareSdk, SANDBOX_CARDS, type SdkState, type SquareCard, sandboxTokenize, squareCard } from './cardForm.ts';

type Provider = BillingSummary['provider'];

interface CardFormProps {
  provider: Provider;
  submitLabel: string;
  busy: boolean;
  onToken: (token: string) => void;
}

/**
 * A card, turned into a token in the browser: the sandbox's form by default, or Square's card
 * field when Square is configured. `onToken` gets the token only; the number never leaves here.
 */
export function CardForm(props: CardFormProps) {
  return props.provider.kind === 'square' ? <SquareCardForm {...props} /> : <SandboxCardForm {...props} />;
}

function SandboxCardForm({ submitLabel, busy, onToken }: Omit<CardFormProps, 'provider'>) {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = sandboxTokenize({ number, expiry, cvc }, new Date());
    if (!r.ok) return setError(r.error);
    setError(null);
    onToken(r.token);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Card details" noValidate>
      <TextField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        value={number}
        onChange={(e) => setNumber(e.target.value)}
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label="Expiry (MM/YY)"
          inputMode="numeric"
          autoComplete="cc-exp"
          value={expiry}
          onChange={(e) => setExpiry(e.target.value)}
        />
        <TextField
          label="Security code"
          inputMode="numeric"
          autoComplete="cc-csc"
          value={cvc}
          onChange={(e) => setCvc(e.target.value)}
        />
      </div>
      <FormError boxed>{error}</FormError>
      <Button type="submit" block loading={busy}>
        {submitLabel}
      </Button>
      <div className="rounded-xl bg-canvas p-3 text-sm text-muted">
        <p className="font-semibold text-ink">Sandbox: no real money moves.</p>
        <p>Use a test card with any future expiry and any 3 digits:</p>
        <ul className="mt-1 flex flex-col gap-0.5">
          {SANDBOX_CARDS.map((c) => (
            <li key={c.number}>
              <span className="font-mono text-ink">{c.number}</span> {c.label}
            </li>
          ))}
        </ul>
      </div>
    </form>
  );
}

const SDK_TEXT: Record<Exclude<SdkState, 'ready'>, string> = {
  'not-loaded': 'The card form has not loaded yet.',
  loading: 'Loading the secure card form…',
  failed: 'The card form failed to load. Check your connection and try again.',
  timeout: 'The card form took too long to start. Try again.',
};

function SquareCardForm({ provider, submitLabel, busy, onToken }: CardFormProps) {
  const [state, setState] = useState<SdkState>('not-loaded');
  const [error, setError] = useState<string | null>(null);
  const card = useRef<SquareCard | null>(null);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-runs the loader on "Try again"
  useEffect(() => {
    let cancelled = false;
    setState('loading');
    setError(null);
    loadSquareSdk(provider.environment)
      .then((sdk) => squareCard(sdk, provider.applicationId ?? '', provider.locationId ?? ''))
      .then(async (c) => {
        if (cancelled) return;
        await c.attach('#square-card');
        card.current = c;
        setState('ready');
      })
      .catch((e: unknown) => {
        if (cancelled) return;
        setState(e instanceof Error && e.message === 'initialization timeout' ? 'timeout' : 'failed');
        // The card instance was asked of an SDK that never came: the spec's words for it.
        setError(BillingMessages.notInitialized);
      });
    return () => {
      cancelled = true;
      void card.current?.destroy?.();
    };
  }, [provider.environment, provider.applicationId, provider.locationId, attempt]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!card.current) return setError(BillingMessages.notInitialized);
    const r = await card.current.tokenize();
    if (r.status !== 'OK' || !r.token) return setError(r.errors?.[0]?.message ?? 'Check the card details.');
    setError(null);
    onToken(r.token);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Card details">
      <div id="square-card" className="min-h-24" />
      {state === 'loading' ? <Spinner label={SDK_TEXT.loading} /> : null}
      {state === 'failed' || state === 'timeout' ? (
        <div className="flex flex-col gap-2">
          <FormError boxed>{SDK_TEXT[state]}</FormError>
          <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
        </div>
      ) : null}
      <FormError boxed>{error}</FormError>
      <Button type="submit" block loading={busy} disabled={state !== 'ready'}>
        {submitLabel}
      </Button>
    </form>
  );
}
