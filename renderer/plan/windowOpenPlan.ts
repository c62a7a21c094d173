import { api } from '../api';
import { OpenPlan } from './openPlan';

/** The window's one, made as the window starts: it hears every `workspace.changed` from the first. */
export const openPlan = new OpenPlan(api);
