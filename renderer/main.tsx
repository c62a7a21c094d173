import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './allStyles';
import { App } from './app/App';
import { applyInitialAppearance } from './app/appearance';
import { workspacePart } from './app/workspacePart';
import { openPlan } from './plan/windowOpenPlan';

// Theme and language before the first paint, from what the last window saw; main's settings follow.
applyInitialAppearance();
// The plan and the chat come in a chunk of their own: asked for now, beside this one.
// Needed for the first paint: a failure is shown where the panes would be.
void workspacePart.load().catch(() => undefined);
// The plan too, first of the window's requests: its answer is in before the folder's, so the board
// draws it in the render that first shows the folder.
void openPlan.request();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
