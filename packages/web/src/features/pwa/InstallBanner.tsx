import { useEffect, useReducer, useRef } from 'react';
import { CloseIcon, DownloadIcon } from '../../ui/icons.tsx';
import { bannerVisible, INSTALL_DISMISSED_KEY, initialInstallState, installReducer, installTitle } from './installState.ts';

/** Chromium's install offer; not in TypeScript's DOM types. */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

function dismissedBefore(): boolean {
  try {
    return localStorage.getItem(INSTALL_DISMISSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/**
 * Where the banner floats: above the bottom navigation in the app, at the top on the landing
 * page (whose Sign up and Sign in buttons sit at the bottom, where a banner would cover them).
 */
const PLACEMENT = {
  'above-nav': 'bottom-[calc(4rem+env(safe-area-inset-bottom))]',
  top: 'top-[max(0.75rem,env(safe-area-inset-top))]',
} as const;

export function InstallBanner({ brand, placement }: { brand: string; placement: keyof typeof PLACEMENT }) {
  const [state, dispatch] = useReducer(installReducer, undefined, () =>
    initialInstallState({ standalone: isStandalone(), dismissedBefore: dismissedBefore() }),
  );
  const offer = useRef<BeforeInstallPromptEvent | null>(null);

  useEffect(() => {
    const onOffer = (e: Event) => {
      e.preventDefault(); // we show our own banner instead of the mini-infobar
      offer.current = e as BeforeInstallPromptEvent;
      dispatch({ type: 'promptAvailable' });
    };
    const onInstalled = () => {
      offer.current = null;
      dispatch({ type: 'installed' });
    };
    window.addEventListener('beforeinstallprompt', onOffer);
    window.addEventListener('appinstalled', onInstalled);
    return () => {
      window.removeEventListener('beforeinstallprompt', onOffer);
      window.removeEventListener('appinstalled', onInstalled);
    };
  }, []);

  if (!bannerVisible(state)) return null;

  const dismiss = () => {
    try {
      localStorage.setItem(INSTALL_DISMISSED_KEY, 'true');
    } catch {
      // Storage unavailable: dismissed for this visit only.
    }
    dispatch({ type: 'dismissed' });
  };

  const install = async () => {
    const e = offer.current;
    if (!e) return;
    offer.current = null; // a prompt can be shown once
    await e.prompt();
    const { outcome } = await e.userChoice;
    if (outcome === 'dismissed') dismiss();
    else dispatch({ type: 'promptAnswered', outcome });
  };

  return (
    <aside aria-label="Install the app" className={`fixed inset-x-0 z-30 mx-auto w-full max-w-md px-3 ${PLACEMENT[placement]}`}>
      <div className="flex items-center gap-2.5 rounded-2xl border border-line bg-white p-2.5 shadow-lg">
        <div className="flex size-9 shrink-0 items-center justify-center rounded-xl bg-primary text-white max-[359px]:hidden">
          <DownloadIcon width={20} height={20} />
        </div>
        <div className="min-w-0 flex-1">
          <p className="text-sm leading-tight font-semibold text-ink">{installTitle(brand)}</p>
          <p className="text-xs leading-snug text-muted">Get the full experience with offline access</p>
        </div>
        <button
          type="button"
          onClick={() => void install()}
          className="h-9 shrink-0 rounded-full bg-primary-strong px-3.5 text-sm font-bold text-white hover:bg-primary-strong/90 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary-strong"
        >
          Install
        </button>
        <button
          type="button"
          aria-label="Dismiss"
          onClick={dismiss}
          className="shrink-0 rounded-full p-1 text-muted hover:bg-canvas"
        >
          <CloseIcon width={20} height={20} />
        </button>
      </div>
    </aside>
  );
}
