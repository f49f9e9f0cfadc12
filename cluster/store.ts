import fs from 'node:fs'
import path from 'node:path'

/**
 * The cluster's durable store: every collection lives in memory and every change is appended to a
 * journal and fsync'd before the call returns, so an acknowledged change survives `kill -9`.
 * On open the snapshot is loaded, the journal replayed (a torn last line from a crash is dropped),
 * and both are compacted into a fresh snapshot. See docs/decisions/002-cluster-storage.md.
 */
type JournalRecord = { op: 'put'; kind: string; id: string; value: unknown } | { op: 'del'; kind: string; id: string }

export class Store {
  private collections = new Map<string, Map<string, unknown>>()
  /**
   * Ids of each kind by parent (`_org`, `_project`, `_table`): kind -> field -> parent id -> ids, in
   * insertion order. A project's tables or a table's transforms are found without reading every
   * object of the kind (10,000 tables: a table's serializer looked through every transform).
   */
  private byParent = new Map<string, Map<string, Map<string, Set<string>>>>()
  /**
   * Ids of each kind by the values of its list fields (REF_FIELDS: a user's `role_ids`): kind ->
   * field -> value -> ids. A role's users are found without reading every user (the role
   * serializer asked every user of the org for each role it answered: 200 roles x 1,000 users).
   */
  private byRef = new Map<string, Map<string, Map<string, Set<string>>>>()
  /** each stored object's JSON text (see copy) */
  private texts = new WeakMap<object, string>()
  /** how many changes each kind has had (any put or delete, a load's included): keys derived caches */
  private generations = new Map<string, number>()
  /** how many changes every kind but the activity records (ACTIVITY_KINDS) has had together */
  private configChanges = 0
  private fd: number
  private closed = false

  private constructor(
    readonly dir: string,
    private journalPath: string,
    private lockPath: string,
  ) {
    this.fd = -1
  }

  /** Opens (or creates) the store in `dir`; throws when another live process holds it. */
  static open(dir: string): Store {
    fs.mkdirSync(dir, { recursive: true })
    const store = new Store(dir, path.join(dir, 'journal.jsonl'), path.join(dir, 'store.lock'))
    store.acquireLock()
    store.load()
    store.compact()
    store.fd = fs.openSync(store.journalPath, 'a')
    return store
  }

  private acquireLock() {
    try {
      const pid = Number(fs.readFileSync(this.lockPath, 'utf8'))
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(`The data directory ${this.dir} is in use by process ${pid}`)
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    fs.writeFileSync(this.lockPath, String(process.pid))
  }

  private load() {
    const snapshotPath = path.join(this.dir, 'snapshot.json')
    if (fs.existsSync(snapshotPath)) {
      const snapshot = JSON.parse(fs.readFileSync(snapshotPath, 'utf8')) as Record<string, [string, unknown][]>
      for (const [kind, entries] of Object.entries(snapshot)) {
        this.collections.set(kind, new Map(entries))
        for (const [id, value] of entries) this.reindex(kind, id, undefined, value)
      }
    }
    if (!fs.existsSync(this.journalPath)) return
    const lines = fs.readFileSync(this.journalPath, 'utf8').split('\n')
    for (const line of lines) {
      if (!line) continue
      let record: JournalRecord
      try {
        record = JSON.parse(line)
      } catch {
        break // a torn write from a crash: everything before it was acknowledged, nothing after it was
      }
      this.apply(record)
    }
  }

  private compact() {
    const snapshot: Record<string, [string, unknown][]> = {}
    for (const [kind, map] of this.collections) snapshot[kind] = [...map.entries()]
    const snapshotPath = path.join(this.dir, 'snapshot.json')
    const tmp = `${snapshotPath}.tmp`
    const fd = fs.openSync(tmp, 'w')
    fs.writeSync(fd, JSON.stringify(snapshot))
    fs.fsyncSync(fd)
    fs.closeSync(fd)
    fs.renameSync(tmp, snapshotPath)
    fsyncDir(this.dir)
    fs.writeFileSync(this.journalPath, '')
  }

  private apply(record: JournalRecord) {
    let map = this.collections.get(record.kind)
    if (!map) this.collections.set(record.kind, (map = new Map()))
    const previous = map.get(record.id)
    if (record.op === 'put') map.set(record.id, record.value)
    else map.delete(record.id)
    this.reindex(record.kind, record.id, previous, record.op === 'put' ? record.value : undefined)
  }

  private reindex(kind: string, id: string, before: unknown, after: unknown) {
    this.generations.set(kind, (this.generations.get(kind) ?? 0) + 1)
    if (!ACTIVITY_KINDS.has(kind)) this.configChanges++
    for (const field of PARENT_FIELDS) {
      const was = parentValue(before, field)
      const now = parentValue(after, field)
      if (was === now) continue
      let fields = this.byParent.get(kind)
      if (!fields) this.byParent.set(kind, (fields = new Map()))
      let parents = fields.get(field)
      if (!parents) fields.set(field, (parents = new Map()))
      if (was !== undefined) {
        const ids = parents.get(was)
        ids?.delete(id)
        if (ids && !ids.size) parents.delete(was)
      }
      if (now !== undefined) {
        let ids = parents.get(now)
        if (!ids) parents.set(now, (ids = new Set()))
        ids.add(id)
      }
    }
    for (const field of REF_FIELDS) {
      const was = refValues(before, field)
      const now = refValues(after, field)
      if (!was.size && !now.size) continue
      let fields = this.byRef.get(kind)
      if (!fields) this.byRef.set(kind, (fields = new Map()))
      let refs = fields.get(field)
      if (!refs) fields.set(field, (refs = new Map()))
      for (const value of was) {
        if (now.has(value)) continue
        const ids = refs.get(value)
        ids?.delete(id)
        if (ids && !ids.size) refs.delete(value)
      }
      for (const value of now) {
        let ids = refs.get(value)
        if (!ids) refs.set(value, (ids = new Set()))
        ids.add(id)
      }
    }
  }

  /**
   * The stored values of a kind whose list `field` (REF_FIELDS) holds `value` (compared as text),
   * themselves (not copies), from the index: a reader that only looks.
   */
  *referrers<T>(kind: string, field: RefField, value: string | number): IterableIterator<Readonly<T>> {
    const ids = this.byRef.get(kind)?.get(field)?.get(String(value))
    const map = this.collections.get(kind)
    if (!ids || !map) return
    for (const id of [...ids]) {
      const stored = map.get(id)
      if (stored !== undefined) yield stored as Readonly<T>
    }
  }

  /**
   * The stored values of a kind whose parent `field` (`_org`, `_project` or `_table`) is `parentId`,
   * themselves (not copies), in insertion order, from the index: a reader that only looks.
   */
  *children<T>(kind: string, field: ParentField, parentId: string): IterableIterator<Readonly<T>> {
    const ids = this.byParent.get(kind)?.get(field)?.get(parentId)
    const map = this.collections.get(kind)
    if (!ids || !map) return
    for (const id of ids) {
      const value = map.get(id)
      if (value !== undefined) yield value as Readonly<T>
    }
  }

  /**
   * A number that changes whenever a value of `kind` is put or deleted: a reader that derives
   * something from a kind's values (a sorted order) keeps it while the number stays the same.
   */
  generation(kind: string): number {
    return this.generations.get(kind) ?? 0
  }

  /**
   * A number that changes whenever a value of any kind but the activity records (ACTIVITY_KINDS:
   * the audit trail, jobs, spent links and tokens) is put or deleted, in the same synchronous step
   * as the change: an answer made from configuration alone, stamped with it, is exactly the state
   * of that number (decision 113).
   */
  configGeneration(): number {
    return this.configChanges
  }

  /** How many values of a kind have `parentId` as their parent `field` (from the index). */
  countChildren(kind: string, field: ParentField, parentId: string): number {
    return this.byParent.get(kind)?.get(field)?.get(parentId)?.size ?? 0
  }

  private write(record: JournalRecord) {
    this.writeLine(JSON.stringify(record), record)
  }

  /** Appends `line` (the record as JSON) to the journal, fsyncs, then applies the record. */
  private writeLine(line: string, record: JournalRecord) {
    if (this.closed) throw new Error('The store is closed')
    fs.writeSync(this.fd, line + '\n')
    fs.fsyncSync(this.fd)
    this.apply(record)
  }

  /**
   * A copy of a stored value: parsed from its JSON text, which is kept beside the value (made on
   * first read for values loaded from disk). Reads are the cluster's hottest path (every request
   * reads its user and roles, a table's serializer its transforms), and parsing kept text costs less
   * than half of a structuredClone; the copy is what a restart would load.
   */
  copy<T>(value: unknown): T {
    if (value === null || typeof value !== 'object') return value as T
    let text = this.texts.get(value)
    if (text === undefined) {
      text = JSON.stringify(value)
      this.texts.set(value, text)
    }
    return JSON.parse(text) as T
  }

  /** All values of a kind, in insertion order (copies: callers may not mutate the store's state). */
  all<T>(kind: string): T[] {
    const out: T[] = []
    for (const value of this.collections.get(kind)?.values() ?? []) out.push(this.copy<T>(value))
    return out
  }

  get<T>(kind: string, id: string): T | undefined {
    const value = this.collections.get(kind)?.get(id)
    return value === undefined ? undefined : this.copy<T>(value)
  }

  /**
   * The stored value itself, not a copy, for a reader that only looks (permission checks read the
   * caller's roles on every request): it must not be changed or kept.
   */
  peek<T>(kind: string, id: string): Readonly<T> | undefined {
    return this.collections.get(kind)?.get(id) as Readonly<T> | undefined
  }

  /**
   * The stored values of a kind themselves, not copies, for a reader that only looks: they must not be changed or kept
   * (copy what is kept).
   */
  values<T>(kind: string): IterableIterator<Readonly<T>> {
    return ((this.collections.get(kind) ?? new Map()) as Map<string, Readonly<T>>).values()
  }

  /** The first value `predicate` holds for (the predicate sees the stored value: it must not change it). */
  find<T>(kind: string, predicate: (value: T) => boolean): T | undefined {
    for (const value of this.collections.get(kind)?.values() ?? []) {
      if (predicate(value as T)) return this.copy<T>(value)
    }
    return undefined
  }

  /** The values `predicate` holds for, copied (the predicate sees the stored values: it must not change them). */
  filter<T>(kind: string, predicate: (value: T) => boolean): T[] {
    const out: T[] = []
    for (const value of this.collections.get(kind)?.values() ?? [])
      if (predicate(value as T)) out.push(this.copy<T>(value))
    return out
  }

  /** The ids of the values `predicate` holds for (the predicate sees the stored values: it must not change them). */
  ids<T>(kind: string, predicate: (value: T) => boolean): string[] {
    const out: string[] = []
    for (const [id, value] of this.collections.get(kind) ?? []) if (predicate(value as T)) out.push(id)
    return out
  }

  count(kind: string, predicate?: (value: unknown) => boolean): number {
    const map = this.collections.get(kind)
    if (!map) return 0
    if (!predicate) return map.size
    let n = 0
    for (const v of map.values()) if (predicate(v)) n++
    return n
  }

  /** Inserts or replaces; durable when it returns. The store keeps the value as its JSON text reads back (what a restart loads). */
  put<T>(kind: string, id: string, value: T): T {
    const text = JSON.stringify(value)
    if (text === undefined) {
      this.write({ op: 'put', kind, id, value: undefined })
      return value
    }
    const stored = JSON.parse(text) as unknown
    if (stored !== null && typeof stored === 'object') this.texts.set(stored, text)
    this.writeLine(`{"op":"put","kind":${JSON.stringify(kind)},"id":${JSON.stringify(id)},"value":${text}}`, {
      op: 'put',
      kind,
      id,
      value: stored,
    })
    return value
  }

  /**
   * Inserts or replaces many values of a kind with one journal write and one fsync (a bulk load:
   * `npm run bench scale` builds a 10,000-table org this way); durable when it returns.
   */
  putMany<T>(kind: string, entries: [id: string, value: T][]) {
    if (this.closed) throw new Error('The store is closed')
    const lines: string[] = []
    const records: JournalRecord[] = []
    for (const [id, value] of entries) {
      const text = JSON.stringify(value)
      const stored = JSON.parse(text) as unknown
      if (stored !== null && typeof stored === 'object') this.texts.set(stored, text)
      lines.push(`{"op":"put","kind":${JSON.stringify(kind)},"id":${JSON.stringify(id)},"value":${text}}`)
      records.push({ op: 'put', kind, id, value: stored })
    }
    if (!lines.length) return
    fs.writeSync(this.fd, lines.join('\n') + '\n')
    fs.fsyncSync(this.fd)
    for (const record of records) this.apply(record)
  }

  /** Removes; durable when it returns. Returns whether something was removed. */
  delete(kind: string, id: string): boolean {
    if (!this.collections.get(kind)?.has(id)) return false
    this.write({ op: 'del', kind, id })
    return true
  }

  close() {
    if (this.closed) return
    this.closed = true
    fs.closeSync(this.fd)
    try {
      if (fs.readFileSync(this.lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(this.lockPath)
    } catch {
      // the lock is advisory; a missing file is fine
    }
  }
}

/**
 * The kinds that record activity rather than configuration: written by logins, log-outs, reset
 * links, the audit trail and running jobs, and read by no answer stamped with `configGeneration`
 * (decision 113). A change to one of them leaves that number as it was; every other kind moves it.
 */
export const ACTIVITY_KINDS: ReadonlySet<string> = new Set([
  'audit',
  'authlog',
  'batch_job',
  'alter_job',
  'revoked_token',
  'reset_token',
])

/** The parent fields the store indexes (crud's stored items keep their parents' ids under them). */
export const PARENT_FIELDS = ['_org', '_project', '_table'] as const
export type ParentField = (typeof PARENT_FIELDS)[number]

/** The list fields the store indexes by value (a user's role ids). */
export const REF_FIELDS = ['role_ids'] as const
export type RefField = (typeof REF_FIELDS)[number]

function refValues(value: unknown, field: RefField): Set<string> {
  if (value === null || typeof value !== 'object') return new Set()
  const list = (value as Record<string, unknown>)[field]
  return Array.isArray(list)
    ? new Set(list.filter((v) => typeof v === 'string' || typeof v === 'number').map(String))
    : new Set()
}

function parentValue(value: unknown, field: ParentField): string | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const parent = (value as Record<string, unknown>)[field]
  return typeof parent === 'string' ? parent : undefined
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function fsyncDir(dir: string) {
  const fd = fs.openSync(dir, 'r')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}
