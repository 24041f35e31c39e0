/** Worker versioning configuration: the build id, the defaults, and half or bad values refused. */
import { loadConfig } from '../../config/config';
import { buildIdOf, workerVersion, type BuildSource } from '../../config/versioning-config';
import { errorLines } from '../harness/config-errors';

const checkout: BuildSource = { packageVersion: '1.4.0', gitCommit: '3F2A9C1D0B4E5F60718293A4B5C6D7E8F9012345' };
const noSource = (): BuildSource => {
  throw new Error('the build source must not be read when CAIRN_BUILD_ID is set');
};

test('the build id is the package version and the first 12 hex digits of the commit', () => {
  expect(buildIdOf('1.4.0', checkout.gitCommit)).toBe('1.4.0+3f2a9c1d0b4e');
  expect(buildIdOf('1.4.0')).toBe('1.4.0');
  expect(buildIdOf('0.1.0-beta.2', 'abc1234')).toBe('0.1.0-beta.2+abc1234');
});

test('a malformed commit or package version makes no build id', () => {
  expect(() => buildIdOf('1.4.0', 'not-a-commit')).toThrow('not a git commit');
  expect(() => buildIdOf('1.4.0', '12ab')).toThrow('not a git commit');
  expect(() => buildIdOf('1 4 0')).toThrow('makes no build id');
  expect(() => buildIdOf('')).toThrow('makes no build id');
});

test('versioning is on by default, in deployment cairn, with the derived build id', () => {
  const { versioning } = loadConfig({});
  expect(versioning).toEqual({ enabled: true, deploymentName: 'cairn' });
  expect(workerVersion(versioning, () => checkout)).toEqual({ deploymentName: 'cairn', buildId: '1.4.0+3f2a9c1d0b4e' });
});

test('CAIRN_BUILD_ID and CAIRN_DEPLOYMENT_NAME override the derived values', () => {
  const { versioning } = loadConfig({ CAIRN_BUILD_ID: ' 2026.11.23-7 ', CAIRN_DEPLOYMENT_NAME: 'cairn-eu' });
  expect(versioning).toEqual({ enabled: true, deploymentName: 'cairn-eu', buildId: '2026.11.23-7' });
  expect(workerVersion(versioning, noSource)).toEqual({ deploymentName: 'cairn-eu', buildId: '2026.11.23-7' });
});

test('CAIRN_WORKER_VERSIONING=off leaves the worker unversioned', () => {
  const { versioning } = loadConfig({ CAIRN_WORKER_VERSIONING: 'off' });
  expect(versioning).toEqual({ enabled: false });
  expect(workerVersion(versioning, noSource)).toBeUndefined();
  expect(loadConfig({ CAIRN_WORKER_VERSIONING: 'on' }).versioning).toEqual({ enabled: true, deploymentName: 'cairn' });
});

test('half-configured versioning is refused, saying why', () => {
  expect(errorLines({ CAIRN_WORKER_VERSIONING: 'off', CAIRN_BUILD_ID: '1.4.0' })).toEqual([
    'CAIRN_WORKER_VERSIONING: off, but CAIRN_BUILD_ID set: unset it or turn versioning on',
  ]);
  expect(
    errorLines({ CAIRN_WORKER_VERSIONING: 'off', CAIRN_DEPLOYMENT_NAME: 'cairn', CAIRN_BUILD_ID: '1.4.0' }),
  ).toEqual([
    'CAIRN_WORKER_VERSIONING: off, but CAIRN_DEPLOYMENT_NAME and CAIRN_BUILD_ID set: unset them or turn versioning on',
  ]);
});

test('bad values are refused with one line per variable', () => {
  expect(errorLines({ CAIRN_WORKER_VERSIONING: 'yes' })).toEqual([
    'CAIRN_WORKER_VERSIONING: expected on or off, got "yes"',
  ]);
  expect(errorLines({ CAIRN_DEPLOYMENT_NAME: 'cairn.prod' })).toEqual([
    'CAIRN_DEPLOYMENT_NAME: expected letters, digits, _ and - only, e.g. cairn, got "cairn.prod"',
  ]);
  expect(errorLines({ CAIRN_DEPLOYMENT_NAME: '   ' })).toEqual([
    'CAIRN_DEPLOYMENT_NAME: expected a non-empty deployment name, got "   "',
  ]);
  expect(errorLines({ CAIRN_BUILD_ID: 'v1 with spaces', CAIRN_DEPLOYMENT_NAME: 'a:b' })).toEqual([
    'CAIRN_BUILD_ID: expected letters, digits, . _ + - only, e.g. 1.4.0+3f2a9c1, got "v1 with spaces"',
    'CAIRN_DEPLOYMENT_NAME: expected letters, digits, _ and - only, e.g. cairn, got "a:b"',
  ]);
  expect(errorLines({ CAIRN_BUILD_ID: 'x'.repeat(256) })[0]).toMatch(
    /^CAIRN_BUILD_ID: expected at most 255 characters/,
  );
});
