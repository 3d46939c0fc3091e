/**
 * linkedom gives every node it builds (each element, text, comment and attribute) a listener table at construction:
 * its EventTarget constructor puts a new Map into one module-wide WeakMap. docmill never listens to a parsed page,
 * yet that table per node was the largest single cost of reading a web page: a large page builds hundreds of
 * thousands of nodes, each an ephemeron entry the garbage collector traces, and WeakMap insertion slows as the map
 * grows (measured on 200 pages of a public web-extraction benchmark: 13.6 s against 8.5 s for the same pages once
 * nodes start without a table).
 *
 * So that one WeakMap drops the constructor's insertions, and an event target gets its table, in that same map, the
 * first time a listener is added to it. linkedom's dispatch already treats a target without a table as one without
 * listeners, so adding, removing and dispatching events behave as before, bubbling to the document and its window
 * included. The change is made once, at load, and only when linkedom is built the way it was read here (the version
 * is pinned); otherwise nothing changes and pages are read as before, only slower.
 */
import { EventTarget as LinkedomEventTarget, Node as NodeFacade } from 'linkedom';

type Listener = unknown;
type ListenerTable = Map<string, Map<Listener, unknown>>;
type EventTargetMethods = {
  addEventListener(this: object, type: string, listener: Listener, options?: unknown): void;
  removeEventListener(this: object, type: string, listener: Listener): void;
};

/**
 * linkedom's private listener WeakMap, caught as its EventTarget constructor fills it for a throwaway target;
 * undefined when the constructor does something else.
 */
function listenerTables(): WeakMap<object, ListenerTable> | undefined {
  const realSet = WeakMap.prototype.set;
  const seen: WeakMap<object, unknown>[] = [];
  WeakMap.prototype.set = function set(this: WeakMap<object, unknown>, key: object, value: unknown) {
    seen.push(this);
    return realSet.call(this, key, value);
  };
  try {
    new (LinkedomEventTarget as unknown as new () => object)();
  } finally {
    WeakMap.prototype.set = realSet;
  }
  return seen.length === 1 ? (seen[0] as WeakMap<object, ListenerTable>) : undefined;
}

function install(): boolean {
  const eventTarget = LinkedomEventTarget as unknown as abstract new () => object;
  // The facade linkedom exports as Node has its real Node class as prototype (shared/facades.js).
  const nodeClass = Object.getPrototypeOf(NodeFacade) as unknown;
  if (typeof nodeClass !== 'function' || Object.getPrototypeOf(nodeClass) !== eventTarget) return false;
  const tables = listenerTables();
  if (!tables) return false;
  const setTable = WeakMap.prototype.set;
  const target = eventTarget.prototype as EventTargetMethods;
  const { addEventListener, removeEventListener } = target;
  // The constructor's insertion is dropped: an own `set` on that one WeakMap shadows WeakMap.prototype.set. The
  // class chain is left alone (changing a class's prototype makes V8 build every instance the slow way).
  Object.defineProperty(tables, 'set', { configurable: true, writable: true, value: () => tables });
  target.addEventListener = function (this: object, type: string, listener: Listener, options?: unknown): void {
    if (!tables.has(this)) setTable.call(tables, this, new Map());
    addEventListener.call(this, type, listener, options);
  };
  target.removeEventListener = function (this: object, type: string, listener: Listener): void {
    if (tables.has(this)) removeEventListener.call(this, type, listener);
  };
  return true;
}

/** Whether linkedom's nodes now start without a listener table (false: linkedom is left as it is). */
export const nodesStartListenerless = install();
