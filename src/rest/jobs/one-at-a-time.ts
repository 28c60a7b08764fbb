/**
 * Runs the calls made for one key one after another, and different keys' side by side: a key's
 * submissions are checked against its active-job limit (`jobs.maxActivePerKey`) in turn, so two at
 * once cannot both pass it.
 */
export function oneAtATimePerKey(): <T>(keyId: string, run: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (keyId, run) => {
    const mine = (tails.get(keyId) ?? Promise.resolve()).then(run);
    const settled = mine.catch(() => undefined);
    tails.set(keyId, settled);
    void settled.then(() => {
      if (tails.get(keyId) === settled) tails.delete(keyId);
    });
    return mine;
  };
}
