import { useEffect, useReducer, useRef } from 'react';
import { Button } from '../../ui/Button.tsx';
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

export function InstallBanner({ brand, raised = false }: { brand: string; raised?: boolean }) {
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
    <aside
      aria-label="Install the app"
      className={`fixed inset-x-0 z-30 mx-auto w-full max-w-md px-3 ${raised ? 'bottom-[calc(4rem+env(safe-area-inset-bottom))]' : 'bottom-3'}`}
    >
      <div className="flex items-center gap-3 rounded-2xl border border-line bg-white p-3 shadow-lg">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-primary text-white">
          <DownloadIcon />
        </div>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold text-ink">{installTitle(brand)}</p>
          <p className="text-sm text-muted">Get the full experience with offline access</p>
        </div>
        <Button className="min-h-10 px-4" onClick={() => void install()}>
          Install
        </Button>
        <button type="button" aria-label="Dismiss" onClick={dismiss} className="rounded-full p-1.5 text-muted hover:bg-canvas">
          <CloseIcon width={20} height={20} />
        </button>
      </div>
    </aside>
  );
}
