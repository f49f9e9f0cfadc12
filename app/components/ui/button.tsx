import { Button as ChakraButton, mergeConfigs, Spinner, type ButtonProps } from '@chakra-ui/react'
import { buttonRecipe as chakraButtonRecipe, spinnerRecipe } from '@chakra-ui/react/theme'
import { forwardRef, type ReactElement } from 'react'
import { DRAWS_PLAIN, plainRecipe } from './plain'

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
  const plain = !import.meta.env.SSR || !DRAWS_PLAIN || ref ? null : plainButton(props)
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
  'type',
  'name',
  'value',
  'form',
  'disabled',
  'autoFocus',
  'formAction',
  'formMethod',
  'formNoValidate',
])

/**
 * A button that is not loading, takes no ref and whose variants and style props are single values
 * (the console's buttons and button links), drawn as Chakra draws it but with its class and CSS
 * worked out once per process (decision 112). Null when Chakra must draw it.
 */
function plainButton(props: ButtonProps): ReactElement | null {
  // not loading, Chakra draws the children as they are: the loading text and spinner wait unused
  const { loading, loadingText: _text, spinner: _spinner, spinnerPlacement: _placement, ...rest } = props
  if (loading) return null
  return plainRecipe(rest as Record<string, unknown>, {
    name: 'button',
    recipe: buttonRecipe,
    tag: 'button',
    classPrefix: 'chakra-button',
    leading: { type: 'button' },
    isAttribute: (key) => BUTTON_ATTRIBUTES.has(key),
  })
}
