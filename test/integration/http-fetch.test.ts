/**
 * The http_fetch tool against a local `node:http` server on 127.0.0.1 (docs/contracts.md#tools): address
 * checks after DNS and on every redirect hop, before anything is sent; time, size and redirect
 * limits. No traffic leaves loopback: refused addresses are never connected to.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo, Socket, createServer as createTcpServer } from 'node:net';
import { inspect } from 'node:util';
import { type HttpFetchOptions, createHttpFetchTool } from '../../activities/tools/builtin/http-fetch';
import { createToolRegistry } from '../../activities/tools/tool-registry';
import { validateArguments } from '../../workflows/step/validate-arguments';
import { toolText } from '../../activities/tools/define-tool';

const hits = new Map<string, number>();
const hanging: ServerResponse[] = [];
let server: Server;
let base: string;
let port: number;

/** Sends a whole body with its length (after `writeHead`, Node would otherwise send chunks). */
function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
}

function answer(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  hits.set(path, (hits.get(path) ?? 0) + 1);
  const redirect = (status: number, location: string): void => void res.writeHead(status, { location }).end();
  if (path === '/hello') send(res, 200, 'text/plain; charset=utf-8', 'hello');
  else if (path === '/big') send(res, 200, 'text/plain', 'x'.repeat(2_000_000));
  else if (path === '/binary') send(res, 200, 'image/png', Buffer.from([137, 80, 78, 71]));
  else if (path === '/hang') hanging.push(res);
  else if (path === '/to-private') redirect(302, 'http://10.1.2.3/');
  else if (path === '/to-hello') redirect(301, '/hello');
  else if (path === '/loop') redirect(302, '/loop');
  else if (path === '/to-echo') redirect(307, '/echo');
  else if (path === '/echo') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = `${req.method ?? ''} ${req.headers['content-length'] ?? '-'} ${Buffer.concat(chunks).toString()}`;
      send(res, 200, 'text/plain', text);
    });
  } else send(res, 404, 'text/plain', 'not found');
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => hits.clear());
afterEach(() => jest.restoreAllMocks());

const context = (signal = new AbortController().signal) => ({
  workspace: '/tmp',
  ledgerDir: '/tmp',
  idempotencyKey: 'k',
  signal,
});

/** Parses `args` as the model's arguments would be, then runs the tool. */
function fetchWith(
  options: HttpFetchOptions,
  args: Record<string, unknown>,
  ctx: ReturnType<typeof context> = context(),
): Promise<string> {
  const tool = createHttpFetchTool(options);
  return tool.run(tool.input.parse(args), ctx).then(toolText);
}

const totalHits = (): number => [...hits.values()].reduce((sum, n) => sum + n, 0);

test('GET reaches a loopback server when loopback is allowed', async () => {
  const output = await fetchWith({ allow: ['loopback'] }, { url: `${base}/hello` });
  expect(output).toBe('HTTP 200 OK\ncontent-type: text/plain; charset=utf-8\ncontent-length: 5\n\nhello');
  expect(hits.get('/hello')).toBe(1);
});

test('the same request is refused by default and the server sees nothing', async () => {
  await expect(fetchWith({ allow: [] }, { url: `${base}/hello` })).rejects.toThrow(
    'http_fetch: 127.0.0.1 is a loopback address; refused (allow it with CAIRN_FETCH_ALLOW=loopback)',
  );
  await expect(fetchWith({ allow: ['private', 'link-local'] }, { url: `${base}/hello` })).rejects.toThrow('refused');
  expect(totalHits()).toBe(0);
});

test('localhost is checked after DNS: it resolves to loopback and is refused by default', async () => {
  const url = `http://localhost:${port}/hello`;
  await expect(fetchWith({ allow: [] }, { url })).rejects.toThrow(
    /^http_fetch: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address; refused/,
  );
  expect(totalHits()).toBe(0);
  const output = await fetchWith({ allow: ['loopback'] }, { url });
  expect(output).toMatch(/^HTTP 200 OK\n[\s\S]*\n\nhello$/);
  expect(hits.get('/hello')).toBe(1);
});

test('the body is cut at maxBytes and the output says so', async () => {
  const output = await fetchWith({ allow: ['loopback'], maxBytes: 1000 }, { url: `${base}/big` });
  const [head = '', body = ''] = output.split('\n\n');
  expect(head).toBe('HTTP 200 OK\ncontent-type: text/plain\ncontent-length: 2000000');
  expect(body).toBe(`${'x'.repeat(1000)}\n[body cut at 1000 bytes]`);
});

test('a server that never answers hits the time limit', async () => {
  const started = Date.now();
  // Long enough for the request to reach the server on a loaded machine (it was 300 ms, and a busy
  // run once aborted before the server saw it), far below the bound asserted next.
  await expect(fetchWith({ allow: ['loopback'], timeoutMs: 1000 }, { url: `${base}/hang` })).rejects.toThrow(
    'http_fetch: no answer within 1000 ms',
  );
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(hits.get('/hang')).toBe(1);
});

test('the context signal cancels a call in flight', async () => {
  const controller = new AbortController();
  const call = fetchWith({ allow: ['loopback'] }, { url: `${base}/hang` }, context(controller.signal));
  setTimeout(() => controller.abort(), 100);
  await expect(call).rejects.toThrow('http_fetch: cancelled');
});

test('a redirect to a private address is refused before connecting to it', async () => {
  const connect = jest.spyOn(Socket.prototype, 'connect');
  await expect(fetchWith({ allow: ['loopback'] }, { url: `${base}/to-private` })).rejects.toThrow(
    'http_fetch: 10.1.2.3 is a private address; refused (allow it with CAIRN_FETCH_ALLOW=private)',
  );
  expect(hits.get('/to-private')).toBe(1);
  const targets = connect.mock.calls.map((args) => inspect(args, { depth: 4 }));
  expect(targets.length).toBeGreaterThan(0);
  expect(targets.filter((target) => target.includes('10.1.2.3'))).toEqual([]);
});

test('a redirect to another loopback path is followed', async () => {
  const output = await fetchWith({ allow: ['loopback'] }, { url: `${base}/to-hello` });
  expect(output).toBe(
    `HTTP 200 OK\nurl: ${base}/hello\ncontent-type: text/plain; charset=utf-8\ncontent-length: 5\n\nhello`,
  );
  expect(hits.get('/to-hello')).toBe(1);
  expect(hits.get('/hello')).toBe(1);
});

test('redirects past maxRedirects fail', async () => {
  await expect(fetchWith({ allow: ['loopback'], maxRedirects: 2 }, { url: `${base}/loop` })).rejects.toThrow(
    'http_fetch: too many redirects',
  );
  expect(hits.get('/loop')).toBe(3);
});

test('POST sends its body with a length, and 307 keeps method and body', async () => {
  const args = { url: `${base}/echo`, method: 'POST', body: 'héllo', headers: { 'content-type': 'text/plain' } };
  expect(await fetchWith({ allow: ['loopback'] }, args)).toMatch(/\n\nPOST 6 héllo$/);
  expect(await fetchWith({ allow: ['loopback'] }, { ...args, url: `${base}/to-echo` })).toMatch(/\n\nPOST 6 héllo$/);
});

test('error statuses are output, binary bodies are described, HEAD has no body', async () => {
  expect(await fetchWith({ allow: ['loopback'] }, { url: `${base}/missing` })).toMatch(/^HTTP 404 Not Found\n/);
  expect(await fetchWith({ allow: ['loopback'] }, { url: `${base}/binary` })).toMatch(
    /\n\n\[4 bytes of image\/png not shown\]$/,
  );
  expect(await fetchWith({ allow: ['loopback'] }, { url: `${base}/hello`, method: 'HEAD' })).toMatch(
    /\n\n\(empty body\)$/,
  );
});

test('the input accepts http and https only, and no body with GET', () => {
  const tool = createHttpFetchTool({ allow: [] });
  expect(tool.name).toBe('http_fetch');
  expect(tool).toMatchObject({
    effect: 'write',
    readWhen: { argument: 'method', default: 'GET', values: ['GET', 'HEAD'] },
  });
  expect(tool.input.safeParse({ url: 'https://example.com/' }).success).toBe(true);
  for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'not a url']) {
    expect(tool.input.safeParse({ url }).success).toBe(false);
  }
  expect(tool.input.safeParse({ url: 'http://example.com/', body: 'x' }).success).toBe(false);
  expect(tool.input.safeParse({ url: 'http://example.com/', method: 'CONNECT' }).success).toBe(false);
});

/** A request as a server honouring Content-Length would split it off the socket's bytes. */
interface RawRequest {
  line: string;
  /** Header lines as sent, `[name, value]`, names lowercased. */
  headers: [string, string][];
  body: string;
}

/** The head of the request at the start of `bytes`, and where its body starts. */
function parseHead(bytes: Buffer): { line: string; headers: [string, string][]; bodyStart: number; length: number } {
  const end = bytes.indexOf('\r\n\r\n');
  const [line = '', ...lines] = (end < 0 ? bytes : bytes.subarray(0, end)).toString('latin1').split('\r\n');
  const headers = lines.map((l): [string, string] => {
    const colon = l.indexOf(':');
    return [l.slice(0, colon).toLowerCase(), l.slice(colon + 1).trim()];
  });
  const length = Number(headers.find(([name]) => name === 'content-length')?.[1] ?? 0);
  return { line, headers, bodyStart: end < 0 ? bytes.length : end + 4, length };
}

/** Splits raw bytes into requests the way a server does: a head, then Content-Length bytes. */
function splitRequests(bytes: Buffer): RawRequest[] {
  const requests: RawRequest[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const { line, headers, bodyStart, length } = parseHead(rest);
    requests.push({ line, headers, body: rest.subarray(bodyStart, bodyStart + length).toString() });
    rest = rest.subarray(bodyStart + length);
  }
  return requests;
}

/**
 * A raw TCP server for one connection: answers the first request (framed by its Content-Length)
 * with a 200 and closes; `received` resolves with every byte the client sent.
 */
async function rawServer(): Promise<{ url: string; received: Promise<Buffer>; close: () => Promise<void> }> {
  let resolveReceived: (bytes: Buffer) => void = () => undefined;
  const received = new Promise<Buffer>((resolve) => (resolveReceived = resolve));
  const tcp = createTcpServer((socket) => {
    const chunks: Buffer[] = [];
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const all = Buffer.concat(chunks);
      const { bodyStart, length } = parseHead(all);
      if (answered || all.indexOf('\r\n\r\n') < 0 || all.length < bodyStart + length) return;
      answered = true;
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
    });
    socket.on('close', () => resolveReceived(Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const { port: rawPort } = tcp.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${rawPort}`,
    received,
    close: () => new Promise((resolve) => tcp.close(() => resolve())),
  };
}

const headerValues = (request: RawRequest | undefined, name: string): string[] =>
  (request?.headers ?? []).filter(([n]) => n === name).map(([, value]) => value);

test('a body behind "Content-Length: 0" cannot smuggle a second request', async () => {
  const raw = await rawServer();
  try {
    const smuggled = 'GET /smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    const output = await fetchWith(
      { allow: ['loopback'] },
      { url: `${raw.url}/submit`, method: 'POST', headers: { 'Content-Length': '0' }, body: smuggled },
    );
    expect(output).toMatch(/^HTTP 200 OK\n/);
    const requests = splitRequests(await raw.received);
    expect(requests.map((r) => r.line)).toEqual(['POST /submit HTTP/1.1']);
    expect(headerValues(requests[0], 'content-length')).toEqual([String(Buffer.byteLength(smuggled))]);
    expect(requests[0]?.body).toBe(smuggled);
  } finally {
    await raw.close();
  }
});

test('framing and hop-by-hop headers from the model are dropped; the tool sets its own', async () => {
  const raw = await rawServer();
  try {
    const headers = {
      Host: 'internal.example',
      'Transfer-Encoding': 'chunked',
      Connection: 'keep-alive, Upgrade',
      'Keep-Alive': 'timeout=5',
      'Proxy-Connection': 'keep-alive',
      TE: 'trailers',
      Trailer: 'X-Signature',
      Upgrade: 'websocket',
      Expect: '100-continue',
      'X-Custom': 'kept',
    };
    const output = await fetchWith(
      { allow: ['loopback'] },
      { url: `${raw.url}/put`, method: 'PUT', headers, body: 'hello' },
    );
    const requests = splitRequests(await raw.received);
    expect(requests.map((r) => r.line)).toEqual(['PUT /put HTTP/1.1']);
    const [request] = requests;
    expect(headerValues(request, 'host')).toEqual([raw.url.slice('http://'.length)]);
    expect(headerValues(request, 'content-length')).toEqual(['5']);
    expect(headerValues(request, 'connection')).toEqual(['close']);
    for (const name of ['transfer-encoding', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade', 'expect']) {
      expect([name, headerValues(request, name)]).toEqual([name, []]);
    }
    expect(headerValues(request, 'x-custom')).toEqual(['kept']);
    expect(request?.body).toBe('hello');
    expect(output).toContain(
      '[request headers the tool sets itself were ignored: Host, Transfer-Encoding, Connection, Keep-Alive, ' +
        'Proxy-Connection, TE, Trailer, Upgrade, Expect]',
    );
  } finally {
    await raw.close();
  }
});

test('header names and values with CR or LF are refused before anything is sent', async () => {
  const tool = createHttpFetchTool({ allow: ['loopback'] });
  // As the worker builds it: a built-in's schema reaches workflow code with its own patterns.
  const registry = createToolRegistry([tool], undefined, [tool.name]);
  const [info] = registry.list();
  const cases = [
    { 'X-Note': 'a\r\nHost: internal.example' },
    { 'X-Note\r\nHost': 'internal.example' },
    { 'X-Note': 'a\nb' },
  ];
  for (const headers of cases) {
    const raw = JSON.stringify({ url: `${base}/echo`, method: 'POST', headers, body: 'x' });
    expect(validateArguments('http_fetch', info?.parameters ?? {}, raw).ok).toBe(false);
    const outcome = await registry.run('http_fetch', raw, context());
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toMatch(/^invalid arguments for http_fetch:/);
  }
  expect(totalHits()).toBe(0);
});

test('writes carry the call idempotency key (the model cannot choose it); reads carry none', async () => {
  const raw = await rawServer();
  const ctx = { ...context(), idempotencyKey: 'agent-1/s1/call-7' };
  try {
    const args = { url: `${raw.url}/pay`, method: 'POST', headers: { 'idempotency-key': 'mine' }, body: '{}' };
    const output = await fetchWith({ allow: ['loopback'] }, args, ctx);
    const [request] = splitRequests(await raw.received);
    expect(headerValues(request, 'idempotency-key')).toEqual(['agent-1/s1/call-7']);
    expect(output).toContain('[request headers the tool sets itself were ignored: idempotency-key]');
  } finally {
    await raw.close();
  }
  const forGet = await rawServer();
  try {
    await fetchWith({ allow: ['loopback'] }, { url: `${forGet.url}/list` }, ctx);
    const [request] = splitRequests(await forGet.received);
    expect(request?.line).toBe('GET /list HTTP/1.1');
    expect(headerValues(request, 'idempotency-key')).toEqual([]);
  } finally {
    await forGet.close();
  }
});
