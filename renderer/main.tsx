import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './allStyles';
import { App } from './app/App';
import { applyInitialAppearance } from './app/appearance';
import { workspacePart } from './app/workspacePart';

// Theme and language before the first paint, from what the last window saw; main's settings follow.
applyInitialAppearance();
// The plan and the chat come in a chunk of their own: asked for now, beside this one.
// Needed for the first paint: a failure is shown where the panes would be.
void workspacePart.load().catch(() => undefined);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
