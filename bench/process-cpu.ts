/**
 * CPU time a server process spends, for the read benchmark: on a shared machine wall-clock
 * latency carries other people's load, CPU time far less. Linux only; elsewhere undefined.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Nanoseconds on a CPU so far, summed over the process's threads (the first field of each
 * thread's schedstat: ns resolution, where /proc/<pid>/stat counts 10 ms ticks).
 */
export function cpuNs(pid: number): number | undefined {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => {
      const ran = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      return sum + (Number.isFinite(ran) ? ran : 0);
    }, 0);
  } catch {
    return undefined;
  }
}

/** Inodes of the sockets listening on TCP `port` (IPv4 and IPv6). */
function listeningInodes(port: number): Set<string> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      const f = line.trim().split(/\s+/);
      if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A' && f[9]) inodes.add(f[9]);
    }
  }
  return inodes;
}

/**
 * The pid of this process's child that listens on TCP `port`. Found by the socket, not the
 * command line: Next's server renames its process (`next-server (v…)`).
 */
export function childListeningOn(port: number): number | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const ppid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
      if (ppid !== process.pid) continue;
      const fds = readdirSync(`/proc/${pid}/fd`);
      if (fds.some((fd) => inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? ''))) return Number(pid);
    } catch {
      // It exited while we looked, or is not ours to read.
    }
  }
  return undefined;
}
