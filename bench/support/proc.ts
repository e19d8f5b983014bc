// CPU time and resident memory of a process group, from /proc (Linux): what a benchmark's servers used, read from
// outside them.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS = 100;
const PAGE = 4096;

export interface GroupUsage {
  /** User + system CPU seconds of every process in the group so far. */
  cpuSeconds: number;
  rssBytes: number;
  processes: number;
}

/** Every live process whose process group is `pgid` (a child spawned detached leads its own group). */
export function groupUsage(pgid: number): GroupUsage {
  return usageOf((_pid, fields) => Number(fields[2]) === pgid); // field 5: pgrp
}

/** A process and its children: a server whose children lead sessions of their own (PostgreSQL's backends each call
 *  setsid, so the postmaster's group holds only itself). */
export function familyUsage(parent: number): GroupUsage {
  return usageOf((pid, fields) => pid === parent || Number(fields[1]) === parent); // field 4: ppid
}

function usageOf(counted: (pid: number, fields: string[]) => boolean): GroupUsage {
  let cpuSeconds = 0;
  let rssBytes = 0;
  let processes = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (!counted(Number(name), fields)) continue;
    processes++;
    cpuSeconds += (Number(fields[11]) + Number(fields[12])) / TICKS; // fields 14, 15: utime, stime
    rssBytes += Number(fields[21]) * PAGE; // field 24: rss in pages
  }
  return { cpuSeconds, rssBytes, processes };
}

/** Usage of several groups added together (several app instances). */
export function groupsUsage(pgids: readonly number[]): GroupUsage {
  return added(pgids.map(groupUsage));
}

/** Several database servers' processes (familyUsage) added together. */
export function familiesUsage(parents: readonly number[]): GroupUsage {
  return added(parents.map(familyUsage));
}

function added(all: readonly GroupUsage[]): GroupUsage {
  return {
    cpuSeconds: all.reduce((n, u) => n + u.cpuSeconds, 0),
    rssBytes: all.reduce((n, u) => n + u.rssBytes, 0),
    processes: all.reduce((n, u) => n + u.processes, 0),
  };
}

/** The whole machine's CPU time so far, all cores (from /proc/stat), in clock ticks. */
export function machineCpu(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!; // "cpu  user nice system idle iowait ..."
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((n, t) => n + t, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: total - idle, total };
}

/** A process's main thread (where a Node server runs its JavaScript): ns on a CPU, and ns runnable but waiting for
 *  one (from /proc/<pid>/schedstat). Waiting time that grows means the machine's CPUs, not the process, are full. */
export function mainThreadSched(pid: number): { runNs: number; waitNs: number } {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return { runNs: run ?? 0, waitNs: wait ?? 0 };
  } catch {
    return { runNs: 0, waitNs: 0 };
  }
}
