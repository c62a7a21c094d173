import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { IdSource, errorBody, errorTypeFor, frame, messageJson, requestTokens, resolveReply, sseEvents, statusFor } from './render';
import type { SseEvent } from './render';
import type {
  ApiErrorType,
  CutFault,
  HangFault,
  ReplyStep,
  ScriptedAnthropic,
  ScriptedAnthropicOptions,
  ScriptedModel,
  ScriptedRequest,
  StaticStep,
  StatusFault,
  Step,
  StreamErrorFault,
  Timing,
} from './types';
import { validateMessagesRequest } from './validate';
import { checkBetas } from './betas';
import { ThinkingLedger } from './thinkingLedger';
import { ServerToolLedger } from './serverToolLedger';
import { checkAgainstModel, modelInfo } from './catalogue';
import { makeAgents, routeAgent } from './agents';

const DEFAULT_MODELS = ['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5'];

/** Start a scripted Anthropic-compatible server on 127.0.0.1. */
export async function startScriptedAnthropic(options: ScriptedAnthropicOptions = {}): Promise<ScriptedAnthropic> {
  const queue: Step[] = [...(options.script ?? [])];
  const agents = makeAgents(options.agents);
  const requests: ScriptedRequest[] = [];
  const replies: Record<string, unknown>[] = [];
  const errors: Error[] = [];
  const ids = new IdSource();
  const validate = options.validate ?? true;
  const catalogue: ScriptedModel[] = Array.isArray(options.catalogue)
    ? options.catalogue
    : (options.models ?? DEFAULT_MODELS).map((id) => ({ id, capabilities: null }));
  const models = catalogue.map((m) => m.id);
  const ledger = new ThinkingLedger();
  const serverTools = new ServerToolLedger();
  /** Records what a reply carries that the client must send back as it is. */
  const issue = (reply: ReturnType<typeof resolveReply>, body: unknown): void => {
    serverTools.issue(reply, body);
    ledger.issue(reply);
  };
  let modelRequests = 0;
  const textChunkChars = Math.max(1, options.textChunkChars ?? 12);
  let consumed = 0;
  let closed = false;

  // ---- low-level helpers ------------------------------------------------------------------------

  /** Resolves after `ms`, or as soon as the response is closed (client abort, server close). */
  const wait = (ms: number, res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      if (res.closed || closed) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        res.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      res.on('close', done);
    });

  const gone = (res: ServerResponse): boolean => closed || res.closed || res.destroyed;

  const write = (res: ServerResponse, chunk: string): Promise<void> =>
    new Promise((resolve) => {
      if (gone(res)) return resolve();
      res.write(chunk, () => resolve());
    });

  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    if (gone(res) || res.headersSent) return;
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  };

  const sendError = (
    res: ServerResponse,
    status: number,
    type: ApiErrorType,
    message: string | undefined,
    requestId: string,
    headers: Record<string, string> = {},
  ): void => {
    sendJson(res, status, errorBody(type, message, requestId), { 'request-id': requestId, ...headers });
  };

  const readBody = (req: IncomingMessage): Promise<string> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  const authorized = (req: IncomingMessage): boolean => {
    if (options.apiKey === undefined) return true;
    const key = req.headers['x-api-key'];
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    return key === options.apiKey || bearer === options.apiKey;
  };

  const flatHeaders = (req: IncomingMessage): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    return out;
  };

  const scriptFailure = (res: ServerResponse, requestId: string, message: string): void => {
    errors.push(new Error(message));
    // x-should-retry: false keeps the SDK from retrying (and burning further steps) on a script bug.
    sendError(res, 500, 'api_error', message, requestId, { 'x-should-retry': 'false' });
  };

  // ---- step execution ---------------------------------------------------------------------------

  const sseHeaders = (requestId: string, extra: Record<string, string> = {}): Record<string, string> => ({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': requestId,
    ...extra,
  });

  /** Send SSE events; stop after `limit` of them. Returns false when the client went away. */
  const streamEvents = async (res: ServerResponse, events: SseEvent[], chunkDelayMs: Timing['chunkDelayMs'], limit = events.length): Promise<boolean> => {
    for (let i = 0; i < Math.min(limit, events.length); i++) {
      const delay = typeof chunkDelayMs === 'function' ? chunkDelayMs() : (chunkDelayMs ?? 0);
      if (i > 0 && delay > 0) await wait(delay, res);
      if (gone(res)) return false;
      await write(res, frame(events[i] as SseEvent));
    }
    return !gone(res);
  };

  const untilClosed = (res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      if (gone(res)) return resolve();
      res.on('close', () => resolve());
    });

  const runReply = async (step: ReplyStep, req: ScriptedRequest, res: ServerResponse, requestId: string): Promise<void> => {
    const reply = resolveReply(step, req.body, ids);
    issue(reply, req.body);
    replies.push(messageJson(reply));
    if (step.delayMs) await wait(step.delayMs, res);
    if (gone(res)) return;
    if (!req.stream) {
      sendJson(res, 200, messageJson(reply), { 'request-id': requestId, ...step.headers });
      return;
    }
    res.writeHead(200, sseHeaders(requestId, step.headers));
    res.flushHeaders();
    if (await streamEvents(res, sseEvents(reply, textChunkChars), step.chunkDelayMs)) res.end();
  };

  const runStatus = async (step: StatusFault, res: ServerResponse, requestId: string): Promise<void> => {
    if (step.delayMs) await wait(step.delayMs, res);
    const type = step.errorType ?? errorTypeFor(step.status);
    const body = step.body ?? errorBody(type, step.message, requestId);
    sendJson(res, step.status, body, { 'request-id': requestId, ...step.headers });
  };

  const runCut = async (step: CutFault, req: ScriptedRequest, res: ServerResponse, requestId: string): Promise<void> => {
    const reply = resolveReply({ content: [{ type: 'text', text: 'This reply is cut short before it ends.' }], ...step }, req.body, ids);
    issue(reply, req.body);
    if (step.delayMs) await wait(step.delayMs, res);
    if (gone(res)) return;
    if (!req.stream) {
      const full = JSON.stringify(messageJson(reply));
      const half = full.slice(0, Math.floor(full.length / 2));
      res.writeHead(200, {
        'content-type': 'application/json',
        'request-id': requestId,
        ...(step.clean ? {} : { 'content-length': String(Buffer.byteLength(full)) }),
        ...step.headers,
      });
      await write(res, half);
      if (step.clean) res.end();
      else res.socket?.destroy();
      return;
    }
    res.writeHead(200, sseHeaders(requestId, step.headers));
    res.flushHeaders();
    if (!(await streamEvents(res, sseEvents(reply, textChunkChars), step.chunkDelayMs, step.after))) return;
    if (step.clean) res.end();
    else res.socket?.destroy();
  };

  const runHang = async (step: HangFault, req: ScriptedRequest, res: ServerResponse, requestId: string): Promise<void> => {
    if (step.delayMs) await wait(step.delayMs, res);
    if (req.stream && step.after !== undefined && !gone(res)) {
      const reply = resolveReply({ content: [{ type: 'text', text: 'This reply stalls and never ends.' }], ...step }, req.body, ids);
      issue(reply, req.body);
      res.writeHead(200, sseHeaders(requestId, step.headers));
      res.flushHeaders();
      await streamEvents(res, sseEvents(reply, textChunkChars), step.chunkDelayMs, step.after);
    }
    await untilClosed(res);
  };

  const runStreamError = async (step: StreamErrorFault, req: ScriptedRequest, res: ServerResponse, requestId: string): Promise<void> => {
    const type = step.errorType ?? 'overloaded_error';
    if (step.delayMs) await wait(step.delayMs, res);
    if (!req.stream) {
      sendError(res, statusFor(type), type, step.message, requestId, step.headers);
      return;
    }
    const reply = resolveReply({ content: [{ type: 'text', text: 'This reply breaks off with an error.' }], ...step }, req.body, ids);
    issue(reply, req.body);
    res.writeHead(200, sseHeaders(requestId, step.headers));
    res.flushHeaders();
    if (!(await streamEvents(res, sseEvents(reply, textChunkChars), step.chunkDelayMs, step.after))) return;
    const body = errorBody(type, step.message, requestId);
    delete body.request_id; // the in-stream error event carries only type and error
    await write(res, frame({ event: 'error', data: body }));
    res.end();
  };

  const runStep = async (step: StaticStep, req: ScriptedRequest, res: ServerResponse, requestId: string): Promise<void> => {
    switch (step.fault) {
      case undefined:
        return runReply(step, req, res, requestId);
      case 'status':
        return runStatus(step, res, requestId);
      case 'cut':
        return runCut(step, req, res, requestId);
      case 'hang':
        return runHang(step, req, res, requestId);
      case 'stream_error':
        return runStreamError(step, req, res, requestId);
      case 'reset':
        if (step.delayMs) await wait(step.delayMs, res);
        res.socket?.destroy();
        return;
    }
  };

  const describeStep = (step: unknown): string | null => {
    if (typeof step !== 'object' || step === null) return `it is ${JSON.stringify(step)}`;
    const s = step as Record<string, unknown>;
    if (s.fault === undefined) return Array.isArray(s.content) ? null : 'a reply step needs a `content` array';
    if (!['status', 'cut', 'hang', 'stream_error', 'reset'].includes(String(s.fault))) return `unknown fault ${JSON.stringify(s.fault)}`;
    if (s.fault === 'status' && typeof s.status !== 'number') return 'a status fault needs a numeric `status`';
    if ((s.fault === 'cut' || s.fault === 'stream_error') && typeof s.after !== 'number') return `a ${String(s.fault)} fault needs a numeric \`after\``;
    return null;
  };

  // ---- routes -----------------------------------------------------------------------------------

  const handleMessages = async (req: IncomingMessage, res: ServerResponse, url: string): Promise<void> => {
    const raw = await readBody(req);
    const requestId = ids.next('req');
    let parsed: unknown;
    let parseError = false;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parseError = true;
    }
    const record: ScriptedRequest = {
      index: requests.length + 1,
      receivedAt: Date.now(),
      url,
      headers: flatHeaders(req),
      body: (parsed ?? {}) as ScriptedRequest['body'],
      stream: typeof parsed === 'object' && parsed !== null && (parsed as { stream?: unknown }).stream === true,
      tokens: parseError ? 0 : requestTokens(parsed),
    };
    requests.push(record);

    const reject = (status: number, type: ApiErrorType, message: string): void => {
      record.rejected = message;
      sendError(res, status, type, message, requestId);
    };
    if (!authorized(req)) return reject(401, 'authentication_error', 'invalid x-api-key');
    if (parseError) return reject(400, 'invalid_request_error', 'There was an error parsing the body. Please make sure the body is valid JSON.');
    if (validate) {
      const problem = validateMessagesRequest(parsed);
      if (problem !== null) return reject(400, 'invalid_request_error', problem);
    }

    if (validate) {
      const body = parsed as Record<string, unknown>;
      if (options.refuseThinking && body.thinking !== undefined) return reject(400, 'invalid_request_error', 'thinking: Extra inputs are not permitted');
      const betaProblem = checkBetas(record.headers['anthropic-beta'], options.refuseBetas === true);
      if (betaProblem !== null) return reject(400, 'invalid_request_error', betaProblem);
      const listed = Array.isArray(options.catalogue) ? catalogue.find((m) => m.id === body.model) : undefined;
      const problem = checkAgainstModel(body, listed) ?? ledger.check(body) ?? serverTools.check(body);
      if (problem !== null) return reject(400, 'invalid_request_error', problem);
    }
    const limit = Math.min(
      options.contextLimit ?? Infinity,
      (Array.isArray(options.catalogue) ? catalogue.find((m) => m.id === record.body.model)?.max_input_tokens : undefined) ?? Infinity,
    );
    if (record.tokens > limit) {
      return reject(400, 'invalid_request_error', `prompt is too long: ${record.tokens} tokens > ${limit} maximum`);
    }
    const side = options.sideAnswer?.(record);
    if (side !== undefined) {
      record.side = true;
      return runStep(side, record, res, requestId);
    }

    const routed = routeAgent(agents, record);
    if (routed.problem !== undefined) return scriptFailure(res, requestId, routed.problem);
    const agent = routed.agent;
    if (agent !== undefined) {
      record.agent = agent.name;
      agent.requests.push(record);
    }
    const next = agent !== undefined ? agent.next() : queue.shift();
    if (next === undefined) {
      const whose =
        agent !== undefined ? `agent ${JSON.stringify(agent.name)}'s script` : agents.length > 0 ? 'the script for requests no agent claims' : 'the script';
      const had = agent !== undefined ? agent.consumed : consumed;
      return scriptFailure(
        res,
        requestId,
        `scripted server: no step left for request ${record.index} (${whose} had ${had} step${had === 1 ? '' : 's'}, all consumed)`,
      );
    }
    const stepIndex = agent !== undefined ? agent.consumed++ : consumed++;
    record.step = stepIndex;
    let step: StaticStep;
    try {
      step = typeof next === 'function' ? await next(record) : next;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return scriptFailure(res, requestId, `scripted server: step ${stepIndex} (a function) threw for request ${record.index}: ${message}`);
    }
    const problem = describeStep(step);
    if (problem !== null) return scriptFailure(res, requestId, `scripted server: step ${stepIndex} is not a reply or a fault: ${problem}`);
    // The agent's own delay comes first, so a test can hold one agent back while another answers.
    if (agent !== undefined && agent.delayMs > 0) await wait(agent.delayMs, res);
    if (gone(res)) return;
    await runStep(step, record, res, requestId);
  };

  const handleModels = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    const requestId = ids.next('req');
    modelRequests++;
    if (!authorized(req)) return sendError(res, 401, 'authentication_error', 'invalid x-api-key', requestId);
    if (options.catalogue === 'missing') return sendError(res, 404, 'not_found_error', 'Not Found', requestId);
    if (options.catalogue === 'malformed') return sendJson(res, 200, { data: 'models', has_more: 'no' }, { 'request-id': requestId });
    const one = /^\/v1\/models\/([^/]+)$/.exec(path)?.[1];
    if (one !== undefined) {
      const model = catalogue.find((m) => m.id === decodeURIComponent(one));
      if (!model) return sendError(res, 404, 'not_found_error', `model: ${decodeURIComponent(one)}`, requestId);
      return sendJson(res, 200, modelInfo(model), { 'request-id': requestId });
    }
    sendJson(
      res,
      200,
      { data: catalogue.map(modelInfo), has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null },
      { 'request-id': requestId },
    );
  };

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const route = async (): Promise<void> => {
      if (req.method === 'POST' && path === '/v1/messages') return handleMessages(req, res, url);
      if (req.method === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/'))) return handleModels(req, res, path);
      await readBody(req);
      sendError(res, 404, 'not_found_error', 'Not Found', ids.next('req'));
    };
    route().catch((e: unknown) => {
      errors.push(e instanceof Error ? e : new Error(String(e)));
      if (!res.headersSent) sendError(res, 500, 'api_error', `scripted server crashed: ${String(e)}`, ids.next('req'), { 'x-should-retry': 'false' });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    port,
    requests,
    replies,
    get modelRequests() {
      return modelRequests;
    },
    sign: (thinking) => ledger.sign(thinking),
    get remaining() {
      return queue.length + agents.reduce((n, a) => n + a.remaining, 0);
    },
    agent(name: string) {
      const found = agents.find((a) => a.name === name);
      if (found === undefined) throw new Error(`scripted server: no agent named ${JSON.stringify(name)}`);
      return found;
    },
    errors,
    push(...steps: Step[]) {
      queue.push(...steps);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        closed = true;
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
