import { contextBridge, ipcRenderer } from 'electron';
import { exposeKeelBridge } from './bridge';

// Exposes the contract and nothing else (bridge.ts, where it is tested without Electron).
exposeKeelBridge(contextBridge, ipcRenderer);
