import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { Disposable } from '../../common/disposables';
import { Emitter } from '../../common/emitter';
import type { ChatStore, ToolApproval } from './chatStore';

/**
 * Which cards the person opened or closed. Kept above the virtualized list: a row that scrolls
 * out of view is unmounted, and must come back as the person left it.
 */
export class Expansion {
  private readonly open = new Map<string, boolean>();
  private readonly changes = new Emitter<[]>();

  subscribe = (listener: () => void): Disposable => this.changes.on(listener);

  get(id: string): boolean | undefined {
    return this.open.get(id);
  }

  set(id: string, value: boolean): void {
    this.open.set(id, value);
    this.changes.fire();
  }
}

export interface ChatContextValue {
  store: ChatStore;
  expansion: Expansion;
  approvalOf: ReadonlyMap<string, ToolApproval>;
  onOpenSettings: () => void;
  /** Opens the settings at the model's connection (key, base URL, model, Test). */
  onConnectModel: () => void;
  /** Puts text in the composer (an example task) and focuses it. */
  fillComposer: (text: string) => void;
}

export const ChatContext = createContext<ChatContextValue | null>(null);

export function useChat(): ChatContextValue {
  const value = useContext(ChatContext);
  if (!value) throw new Error('useChat outside the chat panel');
  return value;
}

/** Whether a card is open: what the person chose, else `fallback` (which may change, e.g. when a command ends). */
export function useExpanded(id: string, fallback: boolean): [boolean, (open: boolean) => void] {
  const { expansion } = useChat();
  const chosen = useSyncExternalStore(expansion.subscribe, () => expansion.get(id));
  const set = useCallback((open: boolean) => expansion.set(id, open), [expansion, id]);
  return [chosen ?? fallback, set];
}
