import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import './index.css';

const root = document.getElementById('root');
// Spec section 8: a page without its root element cannot start.
if (!root) throw new Error('Failed to find the root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
