/**
 * Readies zod schemas for being shared between workflows (workflows/shared-modules.ts). The SDK
 * deep-freezes a shared module's exports after loading them — every object reachable through
 * own properties; a function is frozen but not walked — while zod finishes a schema on first
 * use: a method is bound to the schema on its first read, derived values (`minLength`, …) and
 * internals (an object's property values, a union's discriminator, …) are computed and stored
 * on the schema then. On a frozen schema each of those stores throws. So every such member of
 * every schema reachable from the shared modules is read here, before the freeze — and read once
 * more after the walk, since an internal that meets a recursive schema still being computed is
 * left to be computed again.
 *
 * And a string check's pattern: zod resets its `lastIndex` before each test, which a frozen
 * RegExp refuses; each is swapped for a pattern that tests with its own copy of the expression,
 * kept out of the freeze's reach (see `shareablePattern`).
 */

/** Reads every lazily stored member of every zod schema reachable from `roots`; returns how many schemas. */
export function warmSchemas(roots: readonly unknown[]): number {
  const seen = new WeakSet<object>();
  /** Each schema met and its internals: what holds zod's lazily stored members. */
  const holders: object[] = [];
  const accessors = new Map<object, (string | symbol)[]>();
  const walk = (value: unknown): void => {
    // Like the SDK's freeze: objects are walked through their own properties, functions are not.
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    shareablePatterns(value);
    const internals = read(value, '_zod');
    if (internals !== null && typeof internals === 'object') {
      holders.push(value, internals);
      readInherited(value, accessors);
      readInherited(internals, accessors);
    }
    for (const key of Reflect.ownKeys(value)) walk(read(value, key));
  };
  roots.forEach((root) => {
    // A module namespace: its exports are what the freeze walks.
    if (root !== null && typeof root === 'object') for (const key of Reflect.ownKeys(root)) walk(read(root, key));
  });
  // Once more for what met a recursive schema still being computed (zod left it to be computed
  // again): whatever that stores now is walked like the rest — schemas it reaches included, which
  // join the end of the list and get their second reading too.
  for (let i = 0; i < holders.length; i++) {
    for (const stored of readInherited(holders[i]!, accessors)) walk(stored);
  }
  return holders.length / 2;
}

/**
 * Reads, through `target`, every accessor its prototypes define and it does not hold yet, so each
 * stores its value on `target`; returns the values it now holds. The accessors of a prototype
 * chain are listed once (zod's schemas share a few dozen chains).
 */
function readInherited(target: object, accessors: Map<object, (string | symbol)[]>): unknown[] {
  const proto = Object.getPrototypeOf(target) as object | null;
  if (proto === null) return [];
  let keys = accessors.get(proto);
  if (!keys) {
    keys = accessorKeys(proto);
    accessors.set(proto, keys);
  }
  const stored: unknown[] = [];
  for (const key of keys) {
    if (Object.prototype.hasOwnProperty.call(target, key)) continue;
    const value = read(target, key);
    if (Object.prototype.hasOwnProperty.call(target, key)) stored.push(value);
  }
  return stored;
}

/** The accessors defined along a prototype chain, up to `Object.prototype`. */
function accessorKeys(first: object): (string | symbol)[] {
  const keys: (string | symbol)[] = [];
  for (let proto: object | null = first; proto !== null && proto !== Object.prototype;) {
    for (const key of Reflect.ownKeys(proto)) if (Object.getOwnPropertyDescriptor(proto, key)?.get) keys.push(key);
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return keys;
}

/** Swaps `target.pattern`, when it is a RegExp, for a shareable one. */
function shareablePatterns(target: object): void {
  const descriptor = Object.getOwnPropertyDescriptor(target, 'pattern');
  if (descriptor?.writable && descriptor.value instanceof RegExp)
    Object.defineProperty(target, 'pattern', { ...descriptor, value: shareablePattern(descriptor.value) });
}

/**
 * What zod's checks and its JSON Schema need of a pattern (`test`, `source`, `flags`, a
 * `lastIndex` it may set, `toString`), over a copy of the expression that only this object's
 * functions hold: the freeze walks properties, not closures, so the copy stays usable.
 */
export function shareablePattern(pattern: RegExp): RegExp {
  const own = new RegExp(pattern.source, pattern.flags);
  const shareable = {
    source: own.source,
    flags: own.flags,
    global: own.global,
    test: (text: string): boolean => {
      own.lastIndex = 0;
      return own.test(text);
    },
    exec: (text: string): RegExpExecArray | null => {
      own.lastIndex = 0;
      return own.exec(text);
    },
    toString: (): string => own.toString(),
  };
  // An accessor stays settable on a frozen object; the copy starts every test at 0 anyway.
  Object.defineProperty(shareable, 'lastIndex', { get: () => 0, set: () => undefined, enumerable: false });
  return shareable as unknown as RegExp;
}

/** A property's value, or undefined when reading it throws (zod then stores nothing). */
function read(target: object, key: string | symbol): unknown {
  try {
    return (target as Record<string | symbol, unknown>)[key];
  } catch {
    return undefined;
  }
}
