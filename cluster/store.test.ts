import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Store } from './store'

const dirs: string[] = []
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-test-'))
  dirs.push(dir)
  return dir
}
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

describe('Store', () => {
  it('keeps puts and deletes across reopen, in insertion order', () => {
    const dir = tempDir()
    const a = Store.open(dir)
    a.put('projects', '1', { name: 'one' })
    a.put('projects', '2', { name: 'two' })
    a.put('projects', '1', { name: 'uno' })
    a.put('tables', 't', { name: 'tee' })
    expect(a.delete('tables', 't')).toBe(true)
    expect(a.delete('tables', 't')).toBe(false)
    a.close()

    const b = Store.open(dir)
    expect(b.all('projects')).toEqual([{ name: 'uno' }, { name: 'two' }])
    expect(b.get('tables', 't')).toBeUndefined()
    b.close()
  })

  it('drops a torn last journal line left by a crash and keeps everything before it', () => {
    const dir = tempDir()
    const a = Store.open(dir)
    a.put('projects', '1', { name: 'kept' })
    a.close()
    fs.appendFileSync(path.join(dir, 'journal.jsonl'), '{"op":"put","kind":"projects","id":"2","val')

    const b = Store.open(dir)
    expect(b.all('projects')).toEqual([{ name: 'kept' }])
    b.put('projects', '3', { name: 'after' })
    b.close()
    expect(Store.open(dir).all('projects')).toEqual([{ name: 'kept' }, { name: 'after' }])
  })

  it('hands out copies, so a caller cannot change stored state without a put', () => {
    const store = Store.open(tempDir())
    store.put('projects', '1', { name: 'one', tags: ['a'] })
    const copy = store.get<{ name: string; tags: string[] }>('projects', '1')!
    copy.tags.push('b')
    expect(store.get('projects', '1')).toEqual({ name: 'one', tags: ['a'] })
    store.close()
  })

  it('finds children by parent, after puts, bulk puts, moves, deletes and a reopen (snapshot and journal)', () => {
    const dir = tempDir()
    const a = Store.open(dir)
    a.put('table', 't1', { name: 'one', _project: 'p1' })
    a.putMany('table', [
      ['t2', { name: 'two', _project: 'p1' }],
      ['t3', { name: 'three', _project: 'p2' }],
    ])
    const names = (store: Store, parent: string) =>
      [...store.children<{ name: string }>('table', '_project', parent)].map((table) => table.name)
    expect(names(a, 'p1')).toEqual(['one', 'two'])
    a.put('table', 't2', { name: 'two', _project: 'p2' })
    a.delete('table', 't1')
    expect(names(a, 'p1')).toEqual([])
    expect(names(a, 'p2')).toEqual(['three', 'two'])
    a.close()
    // reopened: the snapshot is loaded (and compacted); then a journal on top of it
    const b = Store.open(dir)
    expect(b.countChildren('table', '_project', 'p2')).toBe(2)
    b.put('table', 't4', { name: 'four', _project: 'p1' })
    b.close()
    const c = Store.open(dir)
    expect(names(c, 'p1')).toEqual(['four'])
    expect(c.countChildren('table', '_project', 'p2')).toBe(2)
    c.close()
  })

  it('finds users by role id, after puts, bulk puts, role changes, deletes and a reopen', () => {
    const dir = tempDir()
    const a = Store.open(dir)
    a.put('user', 'u1', { email: 'one', role_ids: [1, 2] })
    a.putMany('user', [
      ['u2', { email: 'two', role_ids: [2] }],
      ['u3', { email: 'three', role_ids: [] }],
    ])
    const holders = (store: Store, role: number) =>
      [...store.referrers<{ email: string }>('user', 'role_ids', role)].map((user) => user.email).sort()
    expect(holders(a, 2)).toEqual(['one', 'two'])
    expect(holders(a, 1)).toEqual(['one'])
    a.put('user', 'u1', { email: 'one', role_ids: [1] })
    a.put('user', 'u3', { email: 'three', role_ids: [2, 3] })
    a.delete('user', 'u2')
    expect(holders(a, 2)).toEqual(['three'])
    expect(holders(a, 3)).toEqual(['three'])
    a.close()
    const b = Store.open(dir)
    expect(holders(b, 1)).toEqual(['one'])
    expect(holders(b, 2)).toEqual(['three'])
    expect(holders(b, 4)).toEqual([])
    b.close()
  })

  it('refuses a data directory held by another live process', () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, 'store.lock'), String(process.ppid))
    expect(() => Store.open(dir)).toThrow(/in use by process/)
  })

  it('takes over a lock left by a dead process', () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, 'store.lock'), '999999999')
    const store = Store.open(dir)
    // the lock now names this process: another opener is refused while it is held
    expect(fs.readFileSync(path.join(dir, 'store.lock'), 'utf8')).toBe(String(process.pid))
    store.put('k', '1', 1)
    store.close()
    // and it is let go on close
    expect(fs.existsSync(path.join(dir, 'store.lock'))).toBe(false)
  })
})
