import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { dropFirstScreen } from './shared/firstScreen.ts';
import './index.css';

/** A painted first screen (early.ts) the app has not replaced by then (a crash, a screen that never came) goes. */
const FIRST_SCREEN_LIMIT_MS = 10_000;

const root = document.getElementById('root');
// Spec section 8: a page without its root element cannot start.
if (!root) throw new Error('Failed to find the root element');

const reactRoot = createRoot(root);
// The first render as a transition: React renders it in slices of a few milliseconds, so a slow
// phone's main thread is never held for long while the app starts (README "Web budgets").
startTransition(() =>
  reactRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
setTimeout(dropFirstScreen, FIRST_SCREEN_LIMIT_MS);
