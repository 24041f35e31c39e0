/**
 * Which ports are free, and who holds the ones that are not: what `npm start` checks before it
 * starts anything, so a taken port is one clear line naming the program that holds it, not a
 * stack trace after half the processes are up.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';

/** Whether `host:port` can be listened on now: `free`, `in-use`, or `denied` (a privileged port). */
export function probePort(host: string, port: number): Promise<'free' | 'in-use' | 'denied'> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolve('in-use');
      else if (err.code === 'EACCES') resolve('denied');
      else reject(err);
    });
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve('free')));
  });
}

/**
 * The process listening on TCP `port`, as `pid 123 (python3 -m http.server 3000)` — read from
 * Linux's /proc; `undefined` where /proc does not say (another OS, another user's process).
 */
export function portOwner(port: number): string | undefined {
  try {
    const inodes = listeningInodes(port);
    if (inodes.size === 0) return undefined;
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      if (!holdsSocket(pid, inodes)) continue;
      return `pid ${pid} (${commandLine(pid)})`;
    }
  } catch {
    // No /proc: the caller says "another program".
  }
  return undefined;
}

/** The socket inodes listening on `port`, from /proc/net/tcp and tcp6. */
function listeningInodes(port: number): Set<string> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is `<hex ip>:<hex port>`; state 0A is LISTEN; the inode is the 10th field.
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

function holdsSocket(pid: string, inodes: Set<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false; // gone, or another user's
  }
  return fds.some((fd) => {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return target.startsWith('socket:[') && inodes.has(target.slice(8, -1));
    } catch {
      return false;
    }
  });
}

/** A process's command line, arguments joined by spaces, cut to 100 characters. */
function commandLine(pid: string): string {
  const text = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .filter(Boolean)
    .join(' ')
    // eslint-disable-next-line no-control-regex -- another program's arguments: never print them raw
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return text.length > 100 ? `${text.slice(0, 99)}…` : text || '?';
}
