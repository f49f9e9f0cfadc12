import { forwardRef, type ComponentProps } from 'react'

/**
 * `@remix-run/react` for rendering an editor outside a Remix app (the round-trip tests render a
 * form to read what a browser would post): its router parts as the plain elements they render.
 * Use inside a mock, `vi.mock('@remix-run/react', (original) => plainRemixReact(original))`,
 * imported there with `await import('#tests/remix-plain')` (vi.mock is hoisted above imports).
 */
export async function plainRemixReact(importOriginal: () => Promise<typeof import('@remix-run/react')>) {
  const actual = await importOriginal()
  return {
    ...actual,
    Form: forwardRef<HTMLFormElement, ComponentProps<'form'>>(function Form(props, ref) {
      return <form ref={ref} {...props} />
    }),
    Link: ({ to, children, ...props }: ComponentProps<'a'> & { to: string }) => (
      <a href={to} {...props}>
        {children}
      </a>
    ),
    useNavigation: () => ({ state: 'idle' }),
    // outside a router there is no location: the page's root, as a server render of it would see
    useLocation: () => ({ pathname: '/', search: '', hash: '', state: null, key: 'default' }),
  }
}
