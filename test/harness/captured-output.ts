/**
 * What a test's code writes to stdout and stderr (and, with `consoleToo`, through console.log and
 * console.error), captured instead of shown: registers a `beforeEach` that starts capturing and
 * an `afterEach` that restores the streams. Read `written()` in the test.
 */
export function captureOutput(options: { consoleToo?: boolean } = {}): { written: () => string } {
  let chunks: string[] = [];
  let spies: jest.SpyInstance[] = [];
  beforeEach(() => {
    chunks = [];
    const capture = (chunk: string | Uint8Array): boolean => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    };
    const line = (...args: unknown[]) => void chunks.push(args.map(String).join(' '));
    spies = [
      jest.spyOn(process.stdout, 'write').mockImplementation(capture),
      jest.spyOn(process.stderr, 'write').mockImplementation(capture),
      // console.* writes through the streams too, but a console spy makes sure nothing goes around them.
      ...(options.consoleToo
        ? [jest.spyOn(console, 'error').mockImplementation(line), jest.spyOn(console, 'log').mockImplementation(line)]
        : []),
    ];
  });
  afterEach(() => {
    for (const spy of spies) spy.mockRestore();
  });
  return { written: () => chunks.join('') };
}
