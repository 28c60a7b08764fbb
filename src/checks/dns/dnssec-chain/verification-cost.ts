/** What verifying a chain cost: signatures checked and the CPU they took (reported per chain). */
export interface VerificationCost {
  signaturesVerified: number;
  /** CPU milliseconds (user + system) spent in signature verification */
  cpuMs: number;
}

export function newVerificationCost(): VerificationCost {
  return { signaturesVerified: 0, cpuMs: 0 };
}

/** Runs `verify` and adds its CPU time and one signature to `cost`. */
export function measured<T>(cost: VerificationCost, verify: () => T): T {
  const before = process.cpuUsage();
  try {
    return verify();
  } finally {
    const spent = process.cpuUsage(before);
    cost.signaturesVerified += 1;
    cost.cpuMs += (spent.user + spent.system) / 1000;
  }
}
