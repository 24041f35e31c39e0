/**
 * The CLI's API target (client/cli/cairn-api.ts): `CAIRN_API_URL` must be `https://` unless it
 * names this machine, so `CAIRN_TOKEN` never crosses a network in the clear.
 */
import { cliApi } from '../../client/cli/cairn-api';

test('https anywhere, and plain http on loopback, are accepted', () => {
  expect(cliApi({ CAIRN_API_URL: 'https://cairn.example.com/', CAIRN_TOKEN: 't' })).toEqual({
    url: 'https://cairn.example.com',
    token: 't',
  });
  for (const url of ['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000', 'http://127.8.9.10']) {
    expect(cliApi({ CAIRN_API_URL: url, CAIRN_TOKEN: 't' })?.url).toBe(url);
  }
});

test('plain http to another host is refused, saying why', () => {
  for (const url of ['http://cairn.example.com', 'http://10.0.0.5:3000', 'http://127.0.0.1.example.com']) {
    expect(() => cliApi({ CAIRN_API_URL: url, CAIRN_TOKEN: 't' })).toThrow(
      'plain http:// is allowed on loopback only (it would send CAIRN_TOKEN and answers in the clear); use https://',
    );
  }
});

test('no CAIRN_API_URL: the CLI talks to Temporal directly', () => {
  expect(cliApi({})).toBeUndefined();
});

test('CAIRN_TOKEN is sent; with only the server’s CAIRN_API_TOKEN set, that is sent with a one-line note', () => {
  const url = 'http://127.0.0.1:3000';
  const notes: string[] = [];
  const note = (line: string) => notes.push(line);
  expect(cliApi({ CAIRN_API_URL: url, CAIRN_TOKEN: 'mine', CAIRN_API_TOKEN: 'the-servers-token' }, note)).toEqual({
    url,
    token: 'mine',
  });
  expect(notes).toEqual([]);
  expect(cliApi({ CAIRN_API_URL: url, CAIRN_API_TOKEN: 'the-servers-token' }, note)).toEqual({
    url,
    token: 'the-servers-token',
  });
  expect(notes).toEqual(['cairn: CAIRN_TOKEN is not set; sending CAIRN_API_TOKEN as the bearer token']);
  expect(cliApi({ CAIRN_API_URL: url }, note)).toEqual({ url });
  expect(notes).toHaveLength(1);
});
