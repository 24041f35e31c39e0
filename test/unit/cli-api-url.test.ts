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
