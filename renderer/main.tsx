import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './allStyles';
import { App } from './app/App';
import { applyInitialAppearance } from './app/appearance';

// Theme and language before the first paint, from what the last window saw; main's settings follow.
applyInitialAppearance();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
