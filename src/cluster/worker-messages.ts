/**
 * The messages between the primary and a worker about connections (docs/operations.md "Every core"): the worker
 * says when it can take connections and when it stops taking them; the primary sends each connection
 * with the bytes it read from it. The credit ledgers and the metrics have messages of their own
 * (ledger-ipc.ts, metrics-ipc.ts).
 */

/** Worker → primary: `ready` once its app answers, `stopping` once it drains (it takes no new connection). */
export interface WorkerState {
  readonly netdiagWorker: 'ready' | 'stopping';
}

/** Primary → worker, with the connection's socket as the handle: the bytes already read from it, base64. */
export interface HandedConnection {
  readonly netdiagConnection: string;
}

export function isWorkerState(message: unknown, state: WorkerState['netdiagWorker']): boolean {
  return (message as Partial<WorkerState> | null)?.netdiagWorker === state;
}

export function isHandedConnection(message: unknown): message is HandedConnection {
  return typeof (message as Partial<HandedConnection> | null)?.netdiagConnection === 'string';
}

/** The side of the IPC channel a worker holds: Node's `process`. */
export interface PrimaryChannel {
  send(message: unknown): unknown;
  on(event: 'message', listener: (message: unknown, handle?: unknown) => void): unknown;
}
