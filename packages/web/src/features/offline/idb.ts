/**
 * The one IndexedDB store of the offline copy (persist.ts): a value per key, nothing else. A
 * browser without IndexedDB (or one that refuses it, as some private modes do) simply keeps
 * nothing: every call then resolves with nothing.
 */
const DB_NAME = 'fmk-offline';
const STORE = 'snapshots';

let opening: Promise<IDBDatabase | null> | null = null;

function open(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  opening ??= new Promise<IDBDatabase | null>((resolve) => {
    let req: IDBOpenDBRequest;
    try {
      req = indexedDB.open(DB_NAME, 1);
    } catch {
      return resolve(null);
    }
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => {
      const db = req.result;
      // Another tab deleting or upgrading the database: let it, and open again next time.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    req.onerror = () => resolve(null);
    req.onblocked = () => resolve(null);
  }).then((db) => {
    if (!db) opening = null;
    return db;
  });
  return opening;
}

function run<T>(
  db: IDBDatabase,
  mode: IDBTransactionMode,
  request: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T | undefined> {
  return new Promise((resolve) => {
    try {
      const tx = db.transaction(STORE, mode);
      const req = request(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => resolve(undefined);
      tx.onabort = () => resolve(undefined);
    } catch {
      // A closing database, or a value that cannot be stored.
      resolve(undefined);
    }
  });
}

export async function idbGet<T>(key: string): Promise<T | undefined> {
  const db = await open();
  return db ? ((await run(db, 'readonly', (s) => s.get(key))) as T | undefined) : undefined;
}

export async function idbKeys(): Promise<string[]> {
  const db = await open();
  return db ? (((await run(db, 'readonly', (s) => s.getAllKeys())) ?? []) as string[]) : [];
}

/**
 * Stores a value unless `stillWanted` says otherwise at the last moment, in the same task that
 * queues the write: a sign-out in between (which clears the store) is never overwritten.
 */
export async function idbPut(key: string, value: unknown, stillWanted: () => boolean = () => true): Promise<void> {
  const db = await open();
  if (!db || !stillWanted()) return;
  await run(db, 'readwrite', (s) => s.put(value, key));
}

export async function idbDelete(key: string): Promise<void> {
  const db = await open();
  if (db) await run(db, 'readwrite', (s) => s.delete(key));
}

export async function idbClear(): Promise<void> {
  const db = await open();
  if (db) await run(db, 'readwrite', (s) => s.clear());
}
