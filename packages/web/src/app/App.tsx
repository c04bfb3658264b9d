import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { ApiError } from '../api/client.ts';
import { AuthProvider } from '../features/auth/AuthProvider.tsx';
import { dropQueuedSelections } from '../features/game/outbox.ts';
import { PushSync } from '../features/notifications/PushSync.tsx';
import { disablePush } from '../features/notifications/push.ts';
import { OfflineCache } from '../features/offline/OfflineCache.tsx';
import { clearOfflineData } from '../features/offline/persist.ts';
import { ServiceWorkerUpdates } from '../features/pwa/ServiceWorkerUpdates.tsx';
import { SettingsSync } from '../features/settings/SettingsSync.tsx';
import { trackOnline } from '../shared/online.ts';
import { ToastProvider } from '../ui/toast/ToastProvider.tsx';
import { AppRoutes } from './AppRoutes.tsx';
import { DocumentTitle } from './DocumentTitle.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // A 4xx will not change on retry; a network blip or a 5xx may.
      queries: { retry: (n, e) => !(e instanceof ApiError && e.status < 500) && n < 2, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

// Queries wait while the browser is offline, from the first one on (shared/online.ts).
trackOnline();
const defaultQueryClient = makeQueryClient();
// The offline copy of the grid and chats, and the photos kept with it, go with the session.
// Signing out leaves nothing of the user on the phone (spec section 4), picks waiting to be sent included.
const signedOut = () => {
  dropQueuedSelections();
  void clearOfflineData();
};

// This browser stops getting the account's pushes (a shared phone): unsubscribed while the
// token still works.
const beforeSignOut = () => disablePush();

export function App({ queryClient = defaultQueryClient }: { queryClient?: QueryClient }) {
  return (
    <ErrorBoundary>
      <DocumentTitle />
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <ToastProvider>
            <AuthProvider onSignedOut={signedOut} beforeSignOut={beforeSignOut}>
              <OfflineCache>
                <ServiceWorkerUpdates />
                <PushSync />
                <SettingsSync />
                <AppRoutes />
              </OfflineCache>
            </AuthProvider>
          </ToastProvider>
        </BrowserRouter>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
