import { brandLabel, TAGLINE } from '@fmk/core';
import { useAppPreferences } from '../../shared/usePreferences.ts';
import { ButtonLink } from '../../ui/Button.tsx';
import { InstallBanner } from '../pwa/InstallBanner.tsx';

export function LandingScreen() {
  const brand = brandLabel(useAppPreferences()[0].appMode);
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-white px-6 pt-28 pb-10">
      <div className="flex flex-1 flex-col items-center justify-center-safe gap-5 text-center">
        <div
          aria-hidden="true"
          className="flex size-24 items-center justify-center rounded-3xl bg-primary text-3xl font-black text-white shadow-lg"
        >
          {brand}
        </div>
        <h1 className="text-5xl font-black tracking-tight text-ink">{brand}</h1>
        <p className="text-xl font-semibold text-primary-strong">{TAGLINE}</p>
        <p className="max-w-xs text-base text-muted">
          Dating and hookups for men. See who is nearby, pick fuck, marry or kill, and chat when it is mutual.
        </p>
      </div>
      <div className="flex flex-col gap-3">
        <ButtonLink to="/auth?mode=signup" block>
          Sign up
        </ButtonLink>
        <ButtonLink to="/auth?mode=signin" variant="secondary" block>
          Sign in
        </ButtonLink>
        <p className="text-center text-sm text-muted">For adults 18 and over.</p>
      </div>
      <InstallBanner brand={brand} placement="top" />
    </main>
  );
}
