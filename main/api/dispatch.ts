import { ErrorCodes, isRequestChannel, requests, type RequestChannel, type RequestInput, type RequestOutput } from '../../common/contract';
import { toFieldErrors } from '../../common/errorCodes';
import { fail, type Result } from '../../common/result';

export type Handlers = {
  [C in RequestChannel]: (input: RequestInput<C>) => Promise<Result<RequestOutput<C>>> | Result<RequestOutput<C>>;
};

/**
 * The single door into main, whatever the transport: the channel must be in the contract and the
 * payload must match its schema, or the caller gets an error value (`bad_request` with the refused
 * fields in `details.fields`); a handler that throws becomes an `internal` error, never a crash
 * of the host.
 */
export async function dispatchRequest(handlers: Handlers, channel: unknown, payload: unknown): Promise<Result<unknown>> {
  if (!isRequestChannel(channel)) {
    return fail(ErrorCodes.unknownChannel, `There is no request channel named ${JSON.stringify(channel)}.`);
  }
  const parsed = requests[channel].input.safeParse(payload ?? {});
  if (!parsed.success) {
    const fields = toFieldErrors(parsed.error.issues);
    const issues = fields.map((f) => `${f.path || 'payload'}: ${f.message}`).join('; ');
    // The English is for logs and scripts; a window shows `details.fields` under each field.
    return fail(ErrorCodes.badRequest, `The ${channel} request was malformed: ${issues}.`, { fields });
  }
  try {
    const handler = handlers[channel] as (input: unknown) => Promise<Result<unknown>> | Result<unknown>;
    return await handler(parsed.data);
  } catch (error) {
    return fail(ErrorCodes.internal, `Keel failed while handling ${channel}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
