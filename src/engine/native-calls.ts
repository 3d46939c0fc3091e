/**
 * Native calls out in an engine thread, counted in memory the pool and the thread share, so the pool can read them
 * at any moment without a message (the thread may be busy). Ending a thread while one is out aborts the whole
 * process: LiteParse's native module answers from threads of its own through a thread-safe function of the engine
 * thread, and Node before 24.14 aborts when that answer comes after the thread's environment is gone (a Rust panic,
 * "failed to delete napi ref", or an abort in uv_mutex_lock; nodejs/node#58484, napi-rs/napi-rs#2460). So the pool
 * ends a thread (its document's time ran out, it is recycled, the engine shuts down) only once none is out.
 */

/** Two Int32s: the calls out now, and 1 once the pool is ending the thread (it starts no further document). */
export function newNativeBoard(): SharedArrayBuffer {
  return new SharedArrayBuffer(8);
}

let board: Int32Array | undefined;

/** The thread's side: counts its native calls on `shared` from now on (undefined: not in a pool's thread). */
export function countNativeCallsOn(shared: SharedArrayBuffer | undefined): void {
  board = shared ? new Int32Array(shared) : undefined;
}

/** Runs an asynchronous native call, counted while it is out. */
export async function nativeCall<T>(call: () => Promise<T>): Promise<T> {
  const counting = board;
  if (counting) Atomics.add(counting, 0, 1);
  try {
    return await call();
  } finally {
    if (counting) Atomics.sub(counting, 0, 1);
  }
}

/** The thread's side: whether the pool is ending it, so that a document posted ahead to it must not start. */
export function threadEnding(): boolean {
  return board !== undefined && Atomics.load(board, 1) === 1;
}

/** The pool's side: the thread's native calls out now. */
export function nativeCallsOut(shared: SharedArrayBuffer): number {
  return Atomics.load(new Int32Array(shared), 0);
}

/** The pool's side: the thread is being ended; it starts no further document while its calls finish. */
export function markEnding(shared: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(shared), 1, 1);
}
