// Chakra's own Box and Text: the root error page is rare, and the plain path's code would weigh on every page's first load
import { Box, chakra, ChakraProvider, Text } from '@chakra-ui/react'
import { withBase } from '~/utils/base-path'
import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react'
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react'
import type { ToastItem } from '~/components/layout/toaster'
import { pageSystem } from '~/theme'
import { errorMessage } from '~/utils/error-message'
import { EARLY_TEXT_SCRIPT, useRestoreEarlyText } from '~/utils/early-text'
import { useNonce } from '~/utils/nonce'
import { getColorMode } from '~/utils/session.server'
import { themeStylesheetHref } from '~/utils/theme-stylesheet.server'
import { getToasts } from '~/utils/toast.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const [{ toasts, setCookie }, theme] = await Promise.all([getToasts(request), getColorMode(request)])
  return data(
    { toasts, theme, themeCss: themeStylesheetHref() },
    setCookie ? { headers: { 'Set-Cookie': setCookie } } : undefined,
  )
}

// Global CSS and tokens come from the theme stylesheet linked in the head, not from every page;
// without the root loader's hashed URL (an error before it), the same sheet under a revalidated name.
const THEME_STYLESHEET_FALLBACK = '/resources/theme/current.css'

// The toaster's code (with its Button and Stack) loads only on a page that has toasts (decision 032).
const Toaster = lazy(() => import('~/components/layout/toaster').then((module) => ({ default: module.Toaster })))

export const meta: MetaFunction = () => [{ title: 'Cluster Console' }]

export function Layout({ children }: { children: ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>('root')
  const nonce = useNonce()
  // The theme is the server's: Chakra's `.dark`/`.light` class, or for "system" the device's choice in
  // CSS (SYSTEM_DARK_CSS, in the theme stylesheet with the dark rules for Ace)
  const theme = rootData?.theme ?? 'system'
  return (
    <html
      lang="en"
      suppressHydrationWarning
      className={theme === 'system' ? undefined : theme}
      data-theme={theme}
      style={{ colorScheme: theme === 'system' ? 'light dark' : theme }}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* public/ (a deployer may replace these files before building) */}
        <link rel="icon" href={withBase('/favicon.ico')} sizes="32x32" />
        <link rel="icon" href={withBase('/favicon.svg')} type="image/svg+xml" />
        <Meta />
        <link rel="stylesheet" href={withBase(rootData?.themeCss ?? THEME_STYLESHEET_FALLBACK)} />
        <Links />
      </head>
      <body>
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: EARLY_TEXT_SCRIPT }} />
        <ChakraProvider value={pageSystem}>
          {children}
          <Toasts toasts={rootData?.toasts ?? []} />
        </ChakraProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

/** The toaster once there has been a toast: it stays, to remove its toasts on its own timer. */
function Toasts({ toasts }: { toasts: ToastItem[] }) {
  const [hasHadToasts, setHasHadToasts] = useState(toasts.length > 0)
  useEffect(() => {
    if (toasts.length) setHasHadToasts(true)
  }, [toasts])
  if (!hasHadToasts && !toasts.length) return null
  return (
    <Suspense fallback={null}>
      <Toaster toasts={toasts} />
    </Suspense>
  )
}

export default function App() {
  // `<html data-hydrated>` once React has the page: e2e tests wait for it before a click that a page
  // still hydrating could lose.
  useEffect(() => {
    document.documentElement.dataset.hydrated = ''
  }, [])
  useRestoreEarlyText()
  return <Outlet />
}

/**
 * Last resort: a message and a way back, never a stack. Plain styled elements with the look of a
 * large Heading and a Link: their recipes, and Chakra's recipe machinery, stay out of every page's
 * shell (decision 034).
 */
export function ErrorBoundary() {
  const error = useRouteError()
  const status = isRouteErrorResponse(error) ? error.status : 500
  const message = errorMessage(error)
  return (
    <Box as="main" maxW="lg" mx="auto" mt="20" p="8" bg="bg" rounded="lg" shadow="sm">
      <chakra.h1 fontFamily="heading" fontWeight="semibold" textStyle="lg" mb="3">
        {status === 404 ? 'Page not found' : 'Something went wrong'}
      </chakra.h1>
      <Text mb="4">{message}</Text>
      <chakra.a
        href={withBase('/dashboard')}
        color="link"
        _hover={{ textDecoration: 'underline', textUnderlineOffset: '3px' }}
      >
        Back to the dashboard
      </chakra.a>
    </Box>
  )
}
