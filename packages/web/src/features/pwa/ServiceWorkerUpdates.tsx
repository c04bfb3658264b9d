import { useEffect } from 'react';
import { env } from '../../env.ts';
import { useToast } from '../../ui/toast/ToastProvider.tsx';

/**
 * Registers /sw.js at the site root (production builds only) and, when a new version is
 * waiting, offers a reload instead of swapping code under the user (registerType 'prompt').
 */
export function ServiceWorkerUpdates() {
  const toast = useToast();
  useEffect(() => {
    if (env.isDev || !('serviceWorker' in navigator)) return;
    let reloading = false;
    const onControllerChange = () => {
      if (reloading) return;
      reloading = true;
      window.location.reload();
    };
    const offerUpdate = (waiting: ServiceWorker) =>
      toast.show({
        type: 'info',
        title: 'A new version of FMK is ready',
        duration: 15_000,
        action: {
          label: 'Reload',
          onClick: () => {
            navigator.serviceWorker.addEventListener('controllerchange', onControllerChange);
            waiting.postMessage({ type: 'SKIP_WAITING' });
          },
        },
      });
    navigator.serviceWorker
      .register(env.serviceWorkerUrl, { scope: '/' })
      .then((reg) => {
        if (reg.waiting && navigator.serviceWorker.controller) offerUpdate(reg.waiting);
        reg.addEventListener('updatefound', () => {
          const next = reg.installing;
          next?.addEventListener('statechange', () => {
            if (next.state === 'installed' && navigator.serviceWorker.controller) offerUpdate(next);
          });
        });
      })
      .catch((e: unknown) => console.warn('Service worker registration failed', e));
  }, [toast]);
  return null;
}
