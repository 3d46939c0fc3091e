/**
 * Memory of a process and the processes it started, from Linux's /proc: VmHWM is a process's peak resident set
 * since it started (threads included), VmRSS its resident set now. Elsewhere (no /proc) every figure is undefined.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** A number field of /proc/<pid>/status (kB for the Vm fields). */
function statusNumber(pid: number, field: 'VmHWM' | 'VmRSS' | 'Threads'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Peak resident set of one process (threads included), in kB. */
export function peakRssKb(pid: number = process.pid): number | undefined {
  return statusNumber(pid, 'VmHWM');
}

/** The live descendants of `pid` (children, their children, …), from the parent ids in /proc/<pid>/stat. */
export function descendants(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const childrenOf = new Map<number, number[]>();
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = childrenOf.get(ppid) ?? [];
      list.push(Number(name));
      childrenOf.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of childrenOf.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * Σ VmHWM over `pid` and its live descendants, in kB: exact for one process, an upper bound for several (their
 * peaks need not coincide). Read it before the descendants exit.
 */
export function treePeakRssKb(pid: number = process.pid): { kb: number; processes: number } | undefined {
  const own = peakRssKb(pid);
  if (own === undefined) return undefined;
  let kb = own;
  let processes = 1;
  for (const child of descendants(pid)) {
    const peak = peakRssKb(child);
    if (peak === undefined) continue;
    kb += peak;
    processes++;
  }
  return { kb, processes };
}

/** Resident sets now of a process tree, in kB. */
export interface TreeRss {
  /** Σ VmRSS over the process and its live descendants. */
  kb: number;
  /** The process's own (its threads included). */
  ownKb: number;
  processes: number;
  /** The process's own threads (engine threads, V8's and libuv's helpers, native modules' own). */
  threads: number;
}

/** Σ VmRSS over `pid` and its live descendants now, in kB (one reading: the processes' figures coincide in time). */
export function treeRssKb(pid: number = process.pid): TreeRss | undefined {
  const own = statusNumber(pid, 'VmRSS');
  if (own === undefined) return undefined;
  let kb = own;
  let processes = 1;
  for (const child of descendants(pid)) {
    const rss = statusNumber(child, 'VmRSS');
    if (rss === undefined) continue;
    kb += rss;
    processes++;
  }
  return { kb, ownKb: own, processes, threads: statusNumber(pid, 'Threads') ?? 0 };
}

/** Clock ticks a second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux's common configurations). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system, all threads) of a process and its live descendants so far, in ms; undefined without /proc. */
export function treeCpuMs(pid: number = process.pid): number | undefined {
  let ticks = 0;
  let found = false;
  for (const one of [pid, ...descendants(pid)]) {
    try {
      const stat = readFileSync(`/proc/${one}/stat`, 'utf8');
      // Fields after "(comm)": state is the 3rd field, utime the 14th and stime the 15th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      found = true;
    } catch {
      // the process ended while we looked
    }
  }
  return found ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
}

/**
 * CPU time (user + system) of the processes this one has waited for, in ms: /proc/self/stat's cutime and cstime,
 * which count a child once it has ended and been reaped, its own reaped children included. The difference across
 * one child's run is that run's CPU, all its threads and all of it (a live sample would miss its last moments).
 */
export function reapedChildrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after "(comm)": cutime is the 16th field, cstime the 17th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
