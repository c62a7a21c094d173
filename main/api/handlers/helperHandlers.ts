import { ErrorCodes, type RequestInput, type RequestOutput } from '../../../common/contract';
import type { HelperInfo } from '../../../common/helpers';
import { fail, ok, type Result } from '../../../common/result';
import type { Handlers } from '../dispatch';

type HelperChannels = 'helper.list' | 'helper.stop' | 'helper.editPlan' | 'helper.openVersion' | 'helper.merge' | 'helper.discard';

/** What the helper channels need of the open session's helpers (main/helpers/helperPool.ts). */
export interface HelperControl {
  list(): HelperInfo[];
  stop(id: string): Result<{ stopped: boolean }>;
  editPlan(id: string, baseVersion: number, items: RequestInput<'helper.editPlan'>['items']): Result<HelperInfo>;
  openVersion(id: string): Promise<Result<RequestOutput<'helper.openVersion'>>>;
  merge(id: string, strategy: 'three_way' | 'theirs' | 'markers'): Promise<Result<HelperInfo>>;
  discard(id: string): Promise<Result<HelperInfo>>;
}

/** The helper channels over the open session's helpers; with no session open there are none. */
export function helperHandlers(core: { helpers(): HelperControl | null }): Pick<Handlers, HelperChannels> {
  const none = (id: string) => fail(ErrorCodes.helperNotFound, `No helper "${id}" in this session.`);
  return {
    'helper.list': () => ok({ helpers: core.helpers()?.list() ?? [] }),
    'helper.stop': ({ id }) => core.helpers()?.stop(id) ?? none(id),
    'helper.editPlan': ({ id, baseVersion, items }) => core.helpers()?.editPlan(id, baseVersion, items) ?? none(id),
    'helper.openVersion': async ({ id }) => (await core.helpers()?.openVersion(id)) ?? none(id),
    'helper.merge': async ({ id, strategy }) => (await core.helpers()?.merge(id, strategy ?? 'three_way')) ?? none(id),
    'helper.discard': async ({ id }) => (await core.helpers()?.discard(id)) ?? none(id),
  };
}
