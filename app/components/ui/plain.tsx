import type { SystemStyleObject } from '@chakra-ui/react'
import createCache, { type EmotionCache } from '@emotion/cache'
import { __unsafe_useEmotionCache as useEmotionCache } from '@emotion/react'
import { serializeStyles, type SerializedStyles } from '@emotion/serialize'
import { insertStyles } from '@emotion/utils'
import { mergeProps, type RecipeDefinition } from '@chakra-ui/react'
import {
  Children,
  createElement,
  forwardRef,
  isValidElement,
  type ElementType,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react'
import { pageSystem } from '~/theme'

/**
 * Plain elements styled as Chakra would style them (decision 112). Chakra works an element's style
 * out again each time it renders one (its props split, tokens resolved, the CSS serialized and
 * hashed): about 50 µs an element on the server, a sixth of a page's render. A plain element's CSS
 * is worked out once per process for each distinct style, by the same system, so its class and CSS
 * are the ones Chakra gives the same props.
 *
 * Kept by a key that names the style exactly (the component and each style prop with its value).
 * Bounded: a style built from data must not grow it without end.
 */
const compiled = new Map<string, SerializedStyles>()
const MAX_STYLES = 2000

function compile(key: string, make: () => SystemStyleObject[]): SerializedStyles {
  let serialized = compiled.get(key)
  if (serialized === undefined) {
    serialized = serializeStyles([pageSystem.css(...make()) as Parameters<typeof serializeStyles>[0][number]])
    if (compiled.size >= MAX_STYLES) compiled.clear()
    compiled.set(key, serialized)
  }
  return serialized
}

let orphanCache: EmotionCache | undefined
/** Emotion's own choice without a provider: one cache (Chakra's elements make theirs the same way). */
function noProviderCache(): EmotionCache {
  return (orphanCache ??= createCache({ key: 'css' }))
}

/**
 * Whether plain elements are drawn here: on the server only. In the browser Chakra draws every
 * element, as the server's HTML is the same either way and a render there is one user's: an element
 * that changed between plain and Chakra (a button that starts loading) would be a new element,
 * losing its focus and state.
 */
export const DRAWS_PLAIN = import.meta.env.SSR && typeof document === 'undefined'

/** A plain element's parts: its tag, its single-valued style props (in the order given) and its attributes. */
export type PlainParts = {
  tag: string | undefined
  /** A `css` object made by defineCss (kept by its identity), which Chakra puts before the style props. */
  css?: { style: SystemStyleObject; id: number }
  style: [name: string, value: string | number][]
  attributes: Record<string, unknown>
}

const definedCss = new WeakMap<object, number>()
let lastCssId = 0

/**
 * A `css` object made once (a module's constant): a plain element may take it, its style kept by the
 * object itself. An object made in a render is a new one each time, so Chakra draws an element given
 * one that did not come from here.
 */
export function defineCss<T extends SystemStyleObject>(css: T): T {
  if (!definedCss.has(css)) definedCss.set(css, ++lastCssId)
  return css
}

/** Attributes a plain element passes on as they are (anything else is a style prop: Chakra's to draw). */
function isAttribute(key: string): boolean {
  return (
    key === 'children' ||
    key === 'id' ||
    key === 'className' ||
    key === 'role' ||
    key === 'title' ||
    key === 'hidden' ||
    key === 'tabIndex' ||
    key.startsWith('aria-') ||
    key.startsWith('data-') ||
    /^on[A-Z]/.test(key)
  )
}

/**
 * `props` as a plain element's parts, or null when Chakra must draw it: a responsive or conditional
 * value, a `css` object, `asChild`, or anything that is neither a style prop (as the pages' system
 * tells them) nor a plain attribute.
 */
export function plainParts(
  props: Record<string, unknown>,
  isOwnAttribute?: (key: string) => boolean,
): PlainParts | null {
  const parts: PlainParts = { tag: undefined, style: [], attributes: {} }
  for (const key in props) {
    const value = props[key]
    if (value === undefined) continue
    if (key === 'as') {
      if (typeof value !== 'string') return null
      parts.tag = value
    } else if (key === 'css') {
      const id = typeof value === 'object' && value !== null ? definedCss.get(value) : undefined
      if (id === undefined) return null
      parts.css = { style: value as SystemStyleObject, id }
    } else if (isAttribute(key) || isOwnAttribute?.(key)) {
      parts.attributes[key] = value
    } else if (pageSystem.isValidProperty(key)) {
      if (typeof value !== 'string' && typeof value !== 'number') return null
      parts.style.push([key, value])
    } else return null
  }
  return parts
}

/** The style props as Chakra's style object (what `css()` takes). */
export function styleOf(style: PlainParts['style']): SystemStyleObject {
  return Object.fromEntries(style) as unknown as SystemStyleObject
}

/** The parts' styles in Chakra's order: the `css` object, then the style props. */
export function stylesOf(parts: PlainParts): SystemStyleObject[] {
  return parts.css ? [parts.css.style, styleOf(parts.style)] : [styleOf(parts.style)]
}

/**
 * A plain `tag` with the class of the style `make()` gives (kept under `styleKey`), after
 * `classPrefix` (a recipe's own class, e.g. `chakra-heading`) and the caller's className. Its CSS
 * goes where a Chakra element's goes: into the page's Emotion cache as the server renders (the
 * page's style tags are made from it), or, in a cache that does not collect styles, a style tag
 * before the element. Server only: the browser draws Chakra's element (DRAWS_PLAIN).
 */
export function Plain({
  tag,
  styleKey,
  make,
  classPrefix,
  classFirst = false,
  attributes,
  render,
}: {
  tag: string
  styleKey: string
  make: () => SystemStyleObject[]
  classPrefix?: string
  /** The class before the other attributes, as Chakra's Stack renders it. */
  classFirst?: boolean
  attributes: Record<string, unknown>
  /** Draws the element from its props (class included) instead of a plain `tag`: an `asChild` element. */
  render?: (props: Record<string, unknown>) => ReactNode
}) {
  const cache = useEmotionCache() ?? noProviderCache()
  const serialized = compile(styleKey, make)
  // no style, no class (as Chakra leaves a Box without style props)
  const hasStyle = serialized.styles !== ''
  // drawn on the server only (DRAWS_PLAIN): the render's cache takes the CSS now, it runs no effects
  const rules = hasStyle ? (insertStyles(cache, serialized, true) ?? undefined) : undefined
  const styleClass = hasStyle ? `${cache.key}-${serialized.name}` : undefined
  const classes = [classPrefix, attributes.className as string | undefined, styleClass].filter(Boolean).join(' ')
  // the class where Chakra puts it: first for a stack, in place of the caller's, else last
  const props: Record<string, unknown> = classFirst && classes ? { className: classes } : {}
  for (const key in attributes) {
    if (key === 'className') props.className = classes || undefined
    else if (key !== 'children') props[key] = attributes[key]
  }
  if (classes && !('className' in props)) props.className = classes
  const Tag = tag as ElementType
  const element = render ? render(props) : <Tag {...props}>{attributes.children as ReactNode}</Tag>
  if (rules === undefined) return element
  return (
    <>
      <style
        data-emotion={`${cache.key} ${serialized.name}`}
        dangerouslySetInnerHTML={{ __html: rules }}
        nonce={cache.sheet.nonce}
      />
      {element}
    </>
  )
}

/** The key a style is kept under: the component's name, its `css` object's number and each style prop with its value. */
export function plainKey(name: string, style: PlainParts['style'], css?: PlainParts['css']): string {
  let key = css ? `${name}|css#${css.id}` : name
  for (const [prop, value] of style) key += `|${prop}=${value}`
  return key
}

type Variants = Parameters<ReturnType<typeof pageSystem.cva>>[0]
/** A Chakra element's own (empty) recipe, as its factory has it. */
const NO_RECIPE = {}

/**
 * A recipe component (Button, Code, Badge, Link: decision 034's wrappers) drawn plain: its variants,
 * style props and colour palette single values, its other props attributes `isAttribute` accepts
 * (besides ids, roles, aria-, data- and event props). The CSS is Chakra's: the element's empty
 * recipe with the palette, the recipe's variants (the palette copied in), then the style props.
 * With `asChild`, its one element child takes the attributes and class, its own props winning, as
 * Chakra merges them. Null when Chakra must draw it.
 */
export function plainRecipe(
  props: Record<string, unknown>,
  options: {
    name: string
    recipe: RecipeDefinition
    tag: string
    classPrefix: string
    /** Attributes set before the caller's (a button's `type`). */
    leading?: Record<string, unknown>
    isAttribute?: (key: string) => boolean
  },
): ReactElement | null {
  const { recipe } = options
  const variantKeys = Object.keys(recipe.variants ?? {})
  const { asChild, ...rest } = props
  const variants: Record<string, string> = {}
  const others: Record<string, unknown> = {}
  for (const key in rest) {
    const value = rest[key]
    if (!variantKeys.includes(key)) others[key] = value
    else if (typeof value === 'string') variants[key] = value
    else if (value !== undefined) return null
  }
  const parts = plainParts(others, options.isAttribute)
  if (!parts) return null
  if (rest.colorPalette !== undefined && typeof rest.colorPalette !== 'string') return null
  const colorPalette = rest.colorPalette as string | undefined
  const attributes = { ...options.leading, ...parts.attributes }
  const variantKey = variantKeys.map((key) => variants[key]).join('|')
  const styleKey = plainKey(`${options.name}|${variantKey}`, parts.style, parts.css)
  const make = (): SystemStyleObject[] => [
    pageSystem.cva(NO_RECIPE)({ colorPalette } as Variants) as SystemStyleObject,
    pageSystem.cva(recipe)({
      ...variants,
      colorPalette: colorPalette ?? recipe.defaultVariants?.colorPalette,
    } as Variants) as SystemStyleObject,
    ...stylesOf(parts),
  ]
  const tag = parts.tag ?? options.tag
  const common = { tag, classPrefix: options.classPrefix, styleKey, make }
  if (!asChild) return <Plain {...common} attributes={attributes} />
  const child = Children.toArray(attributes.children as ReactNode).find(isValidElement)
  if (!child || Children.count(attributes.children as ReactNode) !== 1) return null
  return (
    <Plain
      {...common}
      attributes={{ ...attributes, children: undefined }}
      render={(own) =>
        createElement(child.type, {
          ...mergeProps(own, child.props as Record<string, unknown>),
          key: child.key,
          ref: (child as { ref?: Ref<unknown> }).ref,
        })
      }
    />
  )
}

type RecipeOptions = Parameters<typeof plainRecipe>[1]

/**
 * A recipe component wrapper (decision 034): Chakra's `component` with `options.recipe` passed in,
 * drawn plain on the server when its props allow (plainRecipe).
 */
export function withPlainRecipe<Props extends object, Element>(Chakra: ElementType, options: RecipeOptions) {
  // the browser's build keeps Chakra's element alone: none of the plain path's code is in its bundle
  if (!import.meta.env.SSR) {
    const ChakraRecipe = forwardRef<Element, Props>(function ChakraRecipe(props, ref) {
      return <Chakra ref={ref} recipe={options.recipe} {...props} />
    })
    ChakraRecipe.displayName = options.name
    return ChakraRecipe
  }
  const Wrapper = forwardRef<Element, Props>(function PlainRecipe(props, ref) {
    const plain = !DRAWS_PLAIN || ref ? null : plainRecipe(props as Record<string, unknown>, options)
    return plain ?? <Chakra ref={ref} recipe={options.recipe} {...props} />
  })
  Wrapper.displayName = `Plain(${options.name})`
  return Wrapper
}

/**
 * A wrapper of a Chakra element without a recipe (Box, Text): drawn plain on the server when its
 * props allow (plainParts), Chakra's otherwise.
 */
export function withPlainStyle<Props extends object, Element>(Chakra: ElementType, name: string, tag: string) {
  // the browser's build keeps Chakra's element as it is: none of the plain path's code is in its bundle
  if (!import.meta.env.SSR) return Chakra as unknown as ReturnType<typeof forwardRef<Element, Props>>
  const Wrapper = forwardRef<Element, Props>(function PlainStyle(props, ref) {
    const parts = !DRAWS_PLAIN || ref ? null : plainParts(props as Record<string, unknown>)
    if (!parts) return <Chakra ref={ref} {...props} />
    return (
      <Plain
        tag={parts.tag ?? tag}
        styleKey={plainKey(name, parts.style, parts.css)}
        make={() => stylesOf(parts)}
        attributes={parts.attributes}
      />
    )
  })
  Wrapper.displayName = `Plain(${name})`
  return Wrapper
}
