import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { ensureSessionStorage } from '~/utils/storage-fallback.client'

ensureSessionStorage()

// No Emotion CacheProvider here: the default cache (key `css`) adopts the server's style tags.
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  )
})
