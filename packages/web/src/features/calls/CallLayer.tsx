import { lazy, Suspense } from 'react';
import { useCallView } from './store.ts';

// The call screen (WebRTC controls, the report sheet) loads only when a call begins.
const CallScreen = lazy(() => import('./CallScreen.tsx').then((m) => ({ default: m.CallScreen })));

/** The call over any screen, while there is one (mounted once by the app shell). */
export function CallLayer() {
  const view = useCallView();
  return view ? (
    <Suspense fallback={null}>
      <CallScreen view={view} />
    </Suspense>
  ) : null;
}
