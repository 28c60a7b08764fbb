/**
 * CPU time of processes and of everything they started, from Linux's /proc (proc(5)): what the load
 * benchmark reads to show how the machine's cores were shared between the service, its lab and the
 * load generator, which all run on the same cores. Elsewhere (no /proc) every figure is null.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (sysconf(_SC_CLK_TCK)); 100 on every Linux we know. */
const TICKS_PER_SECOND = (() => {
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(out.stdout?.trim());
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
})();

/** The fields after the command name, which may itself hold spaces and parentheses. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // gone, or no /proc
  }
}

/** The process and every live descendant of it. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [root];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    // field 4 of stat, the parent's pid, is the second after the command name
    const parent = Number(statFields(Number(entry))?.[1]);
    if (!Number.isInteger(parent)) continue;
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * User and system CPU seconds the processes have used so far, every thread included (fields 14 and 15
 * of stat); null without /proc. A process that has exited counts nothing.
 */
export function cpuSeconds(pids: readonly number[]): number | null {
  let ticks = 0;
  let read = false;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields === null) continue;
    read = true;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return read ? ticks / TICKS_PER_SECOND : null;
}
