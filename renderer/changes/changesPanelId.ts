/** The panel's element id, which the header's button controls (the panel itself loads later). */
export const CHANGES_PANEL_ID = 'changes-panel';
