import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import {
  Badge as ChakraBadge,
  Button as ChakraButton,
  ChakraProvider,
  Code as ChakraCode,
  createSystem,
  defaultConfig,
  Heading as ChakraHeading,
  Input as ChakraInput,
  Link as ChakraLink,
  List as ChakraList,
  mergeConfigs,
  NativeSelect as ChakraNativeSelect,
  Textarea as ChakraTextarea,
  type SystemContext,
} from '@chakra-ui/react'
import {
  badgeRecipe,
  buttonRecipe,
  codeRecipe,
  headingRecipe,
  inputRecipe,
  linkRecipe,
  listSlotRecipe,
  nativeSelectSlotRecipe,
  spinnerRecipe,
  textareaRecipe,
} from '@chakra-ui/react/theme'
import createCache from '@emotion/cache'
import { CacheProvider } from '@emotion/react'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { chakraBaseConfig, systemForPages } from '~/chakra-config'
import { system } from '~/theme'
import { Badge } from './badge'
import { Button } from './button'
import { Code } from './code'
import { Heading } from './heading'
import { Input } from './input'
import { Link } from './link'
import { List } from './list'
import { NativeSelect } from './native-select'
import { Textarea } from './textarea'

const SOLID_HOVER = 'color-mix(in srgb, var(--chakra-colors-color-palette-solid) 88%, black)'

/** The system as it was before decision 034: the same recipes registered in it, the button's override merged. */
const registeredSystem = createSystem(
  chakraBaseConfig,
  mergeConfigs(system._config, {
    theme: {
      recipes: {
        badge: badgeRecipe,
        button: buttonRecipe,
        code: codeRecipe,
        heading: headingRecipe,
        input: inputRecipe,
        link: linkRecipe,
        spinner: spinnerRecipe,
        textarea: textareaRecipe,
      },
      slotRecipes: { list: listSlotRecipe, nativeSelect: nativeSelectSlotRecipe },
    },
  }),
  {
    theme: {
      recipes: {
        button: { variants: { variant: { solid: { _hover: { bg: SOLID_HOVER }, _expanded: { bg: SOLID_HOVER } } } } },
      },
    },
  },
)

function html(value: SystemContext, node: ReactNode): string {
  return renderToString(
    <CacheProvider value={createCache({ key: 'css' })}>
      <ChakraProvider value={systemForPages(value)}>{node}</ChakraProvider>
    </CacheProvider>,
  )
}

describe('recipe components (components/ui)', () => {
  it('render the same classes and CSS with their recipe passed in as they did with it registered in the system', () => {
    const pairs: [ReactNode, ReactNode][] = [
      [<Button colorPalette="blue">Save</Button>, <ChakraButton colorPalette="blue">Save</ChakraButton>],
      [
        <Button variant="outline" size="sm" loading loadingText="Saving">
          Save
        </Button>,
        <ChakraButton variant="outline" size="sm" loading loadingText="Saving">
          Save
        </ChakraButton>,
      ],
      [
        <Button asChild size="sm" variant="outline" colorPalette="red">
          <a href="/x" aria-label="Delete x">
            Delete
          </a>
        </Button>,
        <ChakraButton asChild size="sm" variant="outline" colorPalette="red">
          <a href="/x" aria-label="Delete x">
            Delete
          </a>
        </ChakraButton>,
      ],
      [
        <Button type="submit" size="xs" variant="ghost" disabled name="intent" value="v" mt="2" aria-label="Go now">
          Go
        </Button>,
        <ChakraButton
          type="submit"
          size="xs"
          variant="ghost"
          disabled
          name="intent"
          value="v"
          mt="2"
          aria-label="Go now"
        >
          Go
        </ChakraButton>,
      ],
      [<Button>Plain</Button>, <ChakraButton>Plain</ChakraButton>],
      [
        <Button type="submit" loading={false} loadingText="Running…" colorPalette="blue">
          Run
        </Button>,
        <ChakraButton type="submit" loading={false} loadingText="Running…" colorPalette="blue">
          Run
        </ChakraButton>,
      ],
      [
        <Heading as="h1" size="lg" mb="3">
          Title
        </Heading>,
        <ChakraHeading as="h1" size="lg" mb="3">
          Title
        </ChakraHeading>,
      ],
      [
        <Link href="/x" color="link">
          Back
        </Link>,
        <ChakraLink href="/x" color="link">
          Back
        </ChakraLink>,
      ],
      [
        <Link asChild color="link" fontSize="sm">
          <a href="/y">Y</a>
        </Link>,
        <ChakraLink asChild color="link" fontSize="sm">
          <a href="/y">Y</a>
        </ChakraLink>,
      ],
      [<Badge colorPalette="green">on</Badge>, <ChakraBadge colorPalette="green">on</ChakraBadge>],
      [
        <Badge colorPalette="purple" verticalAlign="middle" size="sm" variant="outline">
          summary
        </Badge>,
        <ChakraBadge colorPalette="purple" verticalAlign="middle" size="sm" variant="outline">
          summary
        </ChakraBadge>,
      ],
      [
        <Code size="sm" variant="surface" whiteSpace="pre-wrap">
          x
        </Code>,
        <ChakraCode size="sm" variant="surface" whiteSpace="pre-wrap">
          x
        </ChakraCode>,
      ],
      [<Code>sql</Code>, <ChakraCode>sql</ChakraCode>],
      [<Input name="a" size="sm" />, <ChakraInput name="a" size="sm" />],
      [<Textarea name="b" />, <ChakraTextarea name="b" />],
      [
        <NativeSelect.Root size="sm">
          <NativeSelect.Field name="c">
            <option>1</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>,
        <ChakraNativeSelect.Root size="sm">
          <ChakraNativeSelect.Field name="c">
            <option>1</option>
          </ChakraNativeSelect.Field>
          <ChakraNativeSelect.Indicator />
        </ChakraNativeSelect.Root>,
      ],
      [
        <List.Root ps="5">
          <List.Item>one</List.Item>
        </List.Root>,
        <ChakraList.Root ps="5">
          <ChakraList.Item>one</ChakraList.Item>
        </ChakraList.Root>,
      ],
    ]
    for (const [wrapped, registered] of pairs) {
      const output = html(system, wrapped)
      expect(output).toContain('css-')
      expect(output).toBe(html(registeredSystem, registered))
    }
  })

  it('are the only way the console imports a Chakra component that has a recipe (one imported from Chakra renders unstyled)', () => {
    const recipeComponents = new Set(
      [...Object.keys(defaultConfig.theme?.recipes ?? {}), ...Object.keys(defaultConfig.theme?.slotRecipes ?? {})].map(
        (key) => key[0]!.toUpperCase() + key.slice(1),
      ),
    )
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) return path === join('app', 'components', 'ui') ? [] : files(path)
        return /\.tsx?$/.test(name) ? [path] : []
      })
    const offenders: string[] = []
    for (const file of files('app')) {
      for (const [, names] of readFileSync(file, 'utf8').matchAll(/import \{([^}]*)\} from '@chakra-ui\/react'/g)) {
        for (const spec of names!.split(',').map((part) => part.trim())) {
          if (spec && !spec.startsWith('type ') && recipeComponents.has(spec.split(' as ')[0]!))
            offenders.push(`${file}: ${spec}`)
        }
      }
    }
    expect(offenders).toEqual([])
  })
})
