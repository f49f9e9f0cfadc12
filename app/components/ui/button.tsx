import {
  Button as ChakraButton,
  mergeConfigs,
  mergeProps,
  Spinner,
  type ButtonProps,
  type SystemStyleObject,
} from '@chakra-ui/react'
import { buttonRecipe as chakraButtonRecipe, spinnerRecipe } from '@chakra-ui/react/theme'
import { Children, createElement, forwardRef, isValidElement, type ReactElement, type ReactNode, type Ref } from 'react'
import { pageSystem } from '~/theme'
import { DRAWS_PLAIN, Plain, plainKey, styleOf, type PlainParts } from './plain'

const SOLID_HOVER = 'color-mix(in srgb, var(--chakra-colors-color-palette-solid) 88%, black)'

/**
 * Chakra's button recipe with the console's solid variant, merged as a system merges a theme's
 * recipe override (mergeConfigs), so the styles are the same as when it was registered in the system.
 */
const buttonRecipe = mergeConfigs(
  { theme: { recipes: { button: chakraButtonRecipe } } },
  {
    theme: {
      recipes: {
        button: {
          variants: {
            variant: {
              // Chakra's hover is the solid colour at 90% over the page, which pales it: white on a
              // hovered blue 600 button fell to 4.3:1. Mixed with black instead, it only gains contrast.
              solid: { _hover: { bg: SOLID_HOVER }, _expanded: { bg: SOLID_HOVER } },
            },
          },
        },
      },
    },
  },
).theme!.recipes!.button!

/**
 * Chakra's Button with its recipe (and its loading spinner's) passed in rather than registered in
 * the browser's system, so pages without a button do not load them (decision 034).
 */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(props, ref) {
  const plain = ref || !DRAWS_PLAIN ? null : plainButton(props)
  if (plain) return plain
  // Chakra's Loader draws this same spinner by default, but from the system's `spinner` recipe.
  const spinner =
    props.loading && props.spinner === undefined ? (
      <Spinner recipe={spinnerRecipe} size="inherit" borderWidth="0.125em" color="inherit" />
    ) : (
      props.spinner
    )
  return <ChakraButton ref={ref} recipe={buttonRecipe} {...props} spinner={spinner} />
})

/** Attributes a plain button (or the element it lends its style to) passes on as they are. */
const BUTTON_ATTRIBUTES = new Set([
  'children',
  'className',
  'id',
  'role',
  'title',
  'type',
  'name',
  'value',
  'form',
  'disabled',
  'tabIndex',
  'hidden',
  'autoFocus',
  'formAction',
  'formMethod',
  'formNoValidate',
])
/** The recipe's variant props: the recipe's, not style props. */
const VARIANTS = new Set(['size', 'variant'])
type Variants = Parameters<ReturnType<typeof pageSystem.cva>>[0]
/** chakra.button's own (empty) recipe, as its factory has it. */
const NO_RECIPE = {}

/**
 * A button that is not loading, takes no ref and whose variants and style props are single values
 * (the console's buttons and button links), drawn as Chakra draws it but with its class and CSS
 * worked out once per process (decision 112). Null when Chakra must draw it.
 */
function plainButton(props: ButtonProps): ReactElement | null {
  const { asChild, loading, loadingText, spinner, spinnerPlacement, ...rest } = props
  if (loading || loadingText !== undefined || spinner !== undefined || spinnerPlacement !== undefined) return null
  const variants: Record<string, string> = {}
  const style: PlainParts['style'] = []
  const attributes: Record<string, unknown> = { type: 'button' }
  for (const key in rest) {
    const value = (rest as Record<string, unknown>)[key]
    if (value === undefined) continue
    if (VARIANTS.has(key)) {
      if (typeof value !== 'string') return null
      variants[key] = value
    } else if (
      BUTTON_ATTRIBUTES.has(key) ||
      key.startsWith('aria-') ||
      key.startsWith('data-') ||
      /^on[A-Z]/.test(key)
    ) {
      attributes[key] = value
    } else if (pageSystem.isValidProperty(key)) {
      if (typeof value !== 'string' && typeof value !== 'number') return null
      style.push([key, value])
    } else return null
  }
  const colorPalette = typeof rest.colorPalette === 'string' ? rest.colorPalette : undefined
  if (rest.colorPalette !== undefined && colorPalette === undefined) return null
  const styleKey = plainKey(`button|${variants.size}|${variants.variant}`, style)
  const make = (): SystemStyleObject[] => [
    pageSystem.cva(NO_RECIPE)({ colorPalette } as Variants) as SystemStyleObject,
    pageSystem.cva(buttonRecipe)({
      ...variants,
      colorPalette: colorPalette ?? buttonRecipe.defaultVariants?.colorPalette,
    } as Variants) as SystemStyleObject,
    styleOf(style),
  ]
  if (!asChild) {
    return <Plain tag="button" classPrefix="chakra-button" styleKey={styleKey} make={make} attributes={attributes} />
  }
  // asChild: the one element child takes the button's attributes and class, its own props winning (as Chakra merges them)
  const child = Children.toArray(attributes.children as ReactNode).find(isValidElement)
  if (!child || Children.count(attributes.children as ReactNode) !== 1) return null
  return (
    <Plain
      tag="button"
      classPrefix="chakra-button"
      styleKey={styleKey}
      make={make}
      attributes={{ ...attributes, children: undefined }}
      render={(buttonProps) =>
        createElement(child.type, {
          ...mergeProps(buttonProps, child.props as Record<string, unknown>),
          key: child.key,
          ref: (child as { ref?: Ref<unknown> }).ref,
        })
      }
    />
  )
}
