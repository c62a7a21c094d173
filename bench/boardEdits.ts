import type { TappedFrame } from './socketTap';

/** One board edit, split where the page sees it. Milliseconds. */
export interface EditTimes {
  /** Change event → the board shows the new stored version. */
  total: number;
  /** Change event → the edit's `plan.edit` sent. */
  board: number;
  /** Sent → the first message that is about this edit: its own answer (by request id) or a newer plan.changed. */
  main: number;
  /** That message → the board shows the new version. */
  render: number;
}

/**
 * Runs in the page (passed to page.evaluate; the socket tap must be installed): `count` edits of
 * the first item's status on the board, `pauseMs` apart, each timed from the change event to the
 * mutation of the board's data-plan-version attribute. The split pairs the edit with its own
 * `plan.edit` request by its id, and with the first message back that concerns it: the answer
 * carrying that id, or a `plan.changed` newer than the version edited (the board shows whichever
 * comes first). Other messages on the socket meanwhile (an agent's events, a late answer to the
 * previous edit) are not counted as this edit's.
 */
export async function editOnBoard({ count, pauseMs }: { count: number; pauseMs: number }): Promise<EditTimes[]> {
  const section = document.querySelector('[data-plan-version]');
  const select = section?.querySelector<HTMLSelectElement>('select.status-select');
  if (!section || !select) throw new Error('the board shows no plan with a status to change');
  const tap = (window as unknown as { __keelSocketTap?: { sends: TappedFrame[]; arrivals: TappedFrame[] } }).__keelSocketTap;
  if (!tap) throw new Error('the socket tap is not installed in this page');
  type Wire = { type?: string; id?: number | null; channel?: string; payload?: { version?: number } };
  const parse = (frame: TappedFrame): Wire => {
    try {
      return JSON.parse(frame.data) as Wire;
    } catch {
      return {};
    }
  };
  const times: EditTimes[] = [];
  for (let i = 0; i < count; i++) {
    const version = Number(section.getAttribute('data-plan-version'));
    const rendered = new Promise<number>((resolve, reject) => {
      // An edit that never renders is a broken bench, not a slow board: it fails instead of hanging.
      const timer = setTimeout(() => reject(new Error(`edit ${i + 1} was never rendered (no new data-plan-version in 10 s)`)), 10_000);
      const observer = new MutationObserver(() => {
        if (Number(section.getAttribute('data-plan-version')) > version) {
          observer.disconnect();
          clearTimeout(timer);
          resolve(performance.now());
        }
      });
      observer.observe(section, { attributes: true, attributeFilter: ['data-plan-version'] });
    });
    tap.sends.length = 0;
    tap.arrivals.length = 0;
    const start = performance.now();
    select.value = select.value === 'completed' ? 'pending' : 'completed';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    const end = await rendered;
    const request = tap.sends.map((frame) => ({ frame, wire: parse(frame) })).find(({ wire }) => wire.channel === 'plan.edit');
    if (!request) throw new Error(`edit ${i + 1}: the socket tap saw no plan.edit sent`);
    const id = request.wire.id;
    const concerns = (wire: Wire) =>
      (wire.type === 'response' && wire.id === id) || (wire.type === 'event' && wire.channel === 'plan.changed' && (wire.payload?.version ?? 0) > version);
    const back = tap.arrivals.find((frame) => frame.at >= request.frame.at && concerns(parse(frame)));
    if (!back) throw new Error(`edit ${i + 1}: rendered, but the tap saw neither the answer to request ${id} nor a newer plan.changed`);
    times.push({ total: end - start, board: request.frame.at - start, main: back.at - request.frame.at, render: end - back.at });
    // The edit's own answer (it may follow the plan.changed event) arrives before the next edit.
    const answered = () => tap.arrivals.some((frame) => parse(frame).id === id);
    for (let wait = 0; !answered() && wait < 1000; wait++) await new Promise((resolve) => setTimeout(resolve, 1));
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return times;
}
