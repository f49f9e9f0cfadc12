/**
 * Inside another site's frame (ALLOW_EMBEDDING) a browser that blocks third-party storage throws on
 * any touch of `window.sessionStorage`, and Remix keeps its scroll positions and route-manifest
 * version there: navigation would break. Where reading it throws, an in-memory Storage for this
 * page's life stands in (what is lost is scroll restoration across reloads, nothing of the user's).
 */
export function ensureSessionStorage(win: Window = window): boolean {
  try {
    void win.sessionStorage.length
    return false
  } catch {
    const items = new Map<string, string>()
    const memory: Storage = {
      get length() {
        return items.size
      },
      clear: () => items.clear(),
      getItem: (key) => items.get(String(key)) ?? null,
      key: (index) => [...items.keys()][index] ?? null,
      removeItem: (key) => void items.delete(String(key)),
      setItem: (key, value) => void items.set(String(key), String(value)),
    }
    Object.defineProperty(win, 'sessionStorage', { value: memory, configurable: true })
    return true
  }
}
