/**
 * Runs async work one piece at a time, in the order it was given. A piece that throws is handed to
 * `onError` and the next one runs anyway; the promise each call returns never rejects.
 */
export function serialQueue(onError: (error: unknown) => void): (work: () => Promise<void>) => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  return (work) => {
    const next = running.then(work).catch(onError);
    running = next;
    return next;
  };
}
