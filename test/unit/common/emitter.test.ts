import { describe, expect, it } from 'vitest';
import { DisposableStore } from '../../../common/disposables';
import { Emitter } from '../../../common/emitter';

describe('Emitter', () => {
  it('a listener that throws is reported, and the listeners after it are still called', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<[number]>({ onListenerError: (error) => errors.push(error) });
    const heard: string[] = [];
    emitter.on((n) => heard.push(`first ${n}`));
    emitter.on(() => {
      throw new Error('broken listener');
    });
    emitter.on((n) => heard.push(`third ${n}`));
    expect(() => emitter.fire(7)).not.toThrow();
    expect(heard).toEqual(['first 7', 'third 7']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['broken listener']);
  });

  it('subscribing returns what undoes it; each subscription is its own', () => {
    const emitter = new Emitter<[string]>();
    const heard: string[] = [];
    const listener = (s: string) => heard.push(s);
    const first = emitter.on(listener);
    const second = emitter.on(listener);
    emitter.fire('a');
    first();
    emitter.fire('b');
    second();
    second();
    emitter.fire('c');
    expect(heard).toEqual(['a', 'a', 'b']);
    expect(emitter.hasListeners).toBe(false);
  });

  it('a listener removed by an earlier one during a fire is not called; one added is called next time', () => {
    const emitter = new Emitter<[]>();
    const heard: string[] = [];
    let stopLate = () => {};
    emitter.on(() => {
      heard.push('early');
      stopLate();
      emitter.on(() => heard.push('added'));
    });
    stopLate = emitter.on(() => heard.push('late'));
    emitter.fire();
    expect(heard).toEqual(['early']);
    heard.length = 0;
    emitter.fire();
    expect(heard).toEqual(['early', 'added']);
  });
});

describe('DisposableStore', () => {
  it('undoes everything newest first, even past one that throws, and at once what comes after', () => {
    const errors: unknown[] = [];
    const store = new DisposableStore((error) => errors.push(error));
    const undone: string[] = [];
    store.add(() => undone.push('first'));
    store.add(() => {
      throw new Error('broken disposer');
    });
    store.add(() => undone.push('third'));
    store.dispose();
    expect(undone).toEqual(['third', 'first']);
    expect(errors).toHaveLength(1);
    store.add(() => undone.push('late'));
    expect(undone).toEqual(['third', 'first', 'late']);
    store.dispose();
    expect(undone).toHaveLength(3);
    expect(store.isDisposed).toBe(true);
  });
});
