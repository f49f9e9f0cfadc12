import {
  Box as ChakraBox,
  ChakraProvider,
  Heading as ChakraHeading,
  HStack as ChakraHStack,
  Stack as ChakraStack,
  Text as ChakraText,
} from '@chakra-ui/react'
import { headingRecipe } from '@chakra-ui/react/theme'
import createCache from '@emotion/cache'
import { CacheProvider } from '@emotion/react'
import createEmotionServer from '@emotion/server/create-instance'
import { createRef, type ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { pageSystem } from '~/theme'
import { Box, Text } from './box'
import { Button } from './button'
import { Heading } from './heading'
import { HStack, Stack } from './stack'

/** A page render as entry.server makes it: one cache that collects the styles, then the page's style tags. */
function page(node: ReactNode): string {
  const cache = createCache({ key: 'css' })
  const server = createEmotionServer(cache)
  const html = renderToString(
    <CacheProvider value={cache}>
      <ChakraProvider value={pageSystem}>{node}</ChakraProvider>
    </CacheProvider>,
  )
  return withoutEmptyStyles(server.constructStyleTagsFromChunks(server.extractCriticalToChunks(html)) + html)
}

/** Style tags with no CSS (Chakra writes one for an element without style, and the provider's empty global one): nothing to compare. */
function withoutEmptyStyles(html: string): string {
  return html.replace(/<style data-emotion="[^"]*"><\/style>/g, '')
}

/** A render into a cache that does not collect styles: each element's style tag goes before it. */
function inline(node: ReactNode): string {
  return withoutEmptyStyles(
    renderToString(
      <CacheProvider value={createCache({ key: 'css' })}>
        <ChakraProvider value={pageSystem}>{node}</ChakraProvider>
      </CacheProvider>,
    ),
  )
}

// Each plain component beside Chakra's own with the same props (decision 112).
const PAIRS: [string, ReactNode, ReactNode][] = [
  ['a Box without style props', <Box id="a">x</Box>, <ChakraBox id="a">x</ChakraBox>],
  [
    'a card',
    <Box as="section" aria-labelledby="h" bg="bg" borderWidth="1px" rounded="md" p="4" pt="2">
      x
    </Box>,
    <ChakraBox as="section" aria-labelledby="h" bg="bg" borderWidth="1px" rounded="md" p="4" pt="2">
      x
    </ChakraBox>,
  ],
  [
    'a muted paragraph',
    <Text color="fg.muted" fontSize="sm" data-denied="" role="status">
      y
    </Text>,
    <ChakraText color="fg.muted" fontSize="sm" data-denied="" role="status">
      y
    </ChakraText>,
  ],
  [
    'a span of text with a class',
    <Text as="span" className="mine" fontWeight="medium">
      z
    </Text>,
    <ChakraText as="span" className="mine" fontWeight="medium">
      z
    </ChakraText>,
  ],
  [
    'a stack',
    <Stack gap="6">
      <span>1</span>
    </Stack>,
    <ChakraStack gap="6">
      <span>1</span>
    </ChakraStack>,
  ],
  ['a stack with defaults', <Stack>1</Stack>, <ChakraStack>1</ChakraStack>],
  [
    'a row',
    <HStack justify="space-between" align="start" wrap="wrap" gap="3" mb="3" as="nav" aria-label="Pages">
      1
    </HStack>,
    <ChakraHStack justify="space-between" align="start" wrap="wrap" gap="3" mb="3" as="nav" aria-label="Pages">
      1
    </ChakraHStack>,
  ],
  [
    'a heading',
    <Heading as="h3" id="x-heading" size="sm" mt="4" mb="1">
      T
    </Heading>,
    <ChakraHeading recipe={headingRecipe} as="h3" id="x-heading" size="sm" mt="4" mb="1">
      T
    </ChakraHeading>,
  ],
  ['a heading of the default size', <Heading>T</Heading>, <ChakraHeading recipe={headingRecipe}>T</ChakraHeading>],
  [
    'a responsive stack (drawn by Chakra)',
    <Stack gap={{ base: '2', md: '4' }}>1</Stack>,
    <ChakraStack gap={{ base: '2', md: '4' }}>1</ChakraStack>,
  ],
  [
    'a Box with a css object and a hover (drawn by Chakra)',
    <Box css={{ '& a': { color: 'link' } }} _hover={{ bg: 'bg.muted' }}>
      1
    </Box>,
    <ChakraBox css={{ '& a': { color: 'link' } }} _hover={{ bg: 'bg.muted' }}>
      1
    </ChakraBox>,
  ],
]

describe('plain Chakra components (components/ui, decision 112)', () => {
  it.each(PAIRS)('render %s with the same HTML and CSS as Chakra', (_, plain, chakra) => {
    expect(page(plain)).toBe(page(chakra))
    expect(inline(plain)).toBe(inline(chakra))
  })

  it('work a style out once per process, not once per element', () => {
    const css = vi.spyOn(pageSystem, 'css')
    const once = (n: number) => (
      <Stack gap="5" data-n={n}>
        <Text fontSize="xs" color="fg.subtle">
          {n}
        </Text>
        <Heading as="h4" size="xs" mb="5">
          {n}
        </Heading>
        <Button asChild size="xs" variant="outline" colorPalette="orange">
          <a href={`/${n}`}>{n}</a>
        </Button>
      </Stack>
    )
    page(once(1))
    const first = css.mock.calls.length
    page(
      <>
        {once(2)}
        {once(3)}
        {once(4)}
      </>,
    )
    const after = css.mock.calls.length
    css.mockRestore()
    // the first render works each style out; later elements with the same styles do not
    expect(first).toBeGreaterThan(0)
    expect(after).toBe(first)
  })

  it('leave an element with a ref to Chakra', () => {
    const ref = createRef<HTMLHeadingElement>()
    expect(page(<Heading ref={ref}>T</Heading>)).toBe(page(<ChakraHeading recipe={headingRecipe}>T</ChakraHeading>))
  })
})
