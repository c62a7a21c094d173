import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyPart } from '../../../renderer/ui/lazyPart';

afterEach(() => vi.restoreAllMocks());

describe('a part loaded ahead of need', () => {
  it('that fails stays idle and says nothing; the load a person asks for tries again and shows its own failure', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    const part = new LazyPart('settings', () => {
      attempts++;
      return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    });
    part.prefetch();
    await vi.waitFor(() => expect(part.snapshot.status).toBe('idle'));
    expect(errors).not.toHaveBeenCalled();
    await expect(part.load()).rejects.toThrow('Failed to fetch');
    expect(part.snapshot.status).toBe('failed');
    expect(attempts).toBe(2);
    expect(errors).toHaveBeenCalledTimes(1);
  });

  it('that succeeds is ready, and a later load does not fetch it again', async () => {
    let attempts = 0;
    const part = new LazyPart('changes', async () => {
      attempts++;
      return { panel: 'ok' };
    });
    part.prefetch();
    expect(await part.load()).toEqual({ panel: 'ok' });
    expect(part.snapshot.status).toBe('ready');
    expect(attempts).toBe(1);
  });
});
