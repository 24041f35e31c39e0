/** Why Node `version` does not satisfy `engines` (`>=X.Y[.Z]`), as one line; undefined when it does. */
export function nodeRefusal(version: string, engines: string): string | undefined;
