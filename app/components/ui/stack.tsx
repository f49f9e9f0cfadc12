import { HStack as ChakraHStack, Stack as ChakraStack, type StackProps } from '@chakra-ui/react'
import { forwardRef } from 'react'
import { DRAWS_PLAIN, Plain, plainKey, plainParts, stylesOf, type PlainParts } from './plain'

/** Stack's own props and the CSS they stand for, in the order Chakra's Stack sets them. */
const STACK_PROPS = [
  ['align', 'alignItems'],
  ['justify', 'justifyContent'],
  ['direction', 'flexDirection'],
  ['wrap', 'flexWrap'],
] as const

/** The stack's parts with its own props as CSS first (display, then those, then a 0.5rem gap by default); null when Chakra must draw it. */
function stackParts(props: StackProps, defaults: { direction: string; align?: string }): PlainParts | null {
  const { direction, align, justify, wrap, gap, separator, ...rest } = props
  if (separator !== undefined) return null
  const parts = plainParts(rest as Record<string, unknown>)
  if (!parts) return null
  const own = { direction: direction ?? defaults.direction, align: align ?? defaults.align, justify, wrap }
  const style: PlainParts['style'] = [['display', 'flex']]
  for (const [name, css] of STACK_PROPS) {
    const value: unknown = own[name]
    if (value === undefined) continue
    if (typeof value !== 'string') return null
    style.push([css, value])
  }
  if (gap !== undefined && typeof gap !== 'string' && typeof gap !== 'number') return null
  style.push(['gap', gap ?? '0.5rem'])
  return { ...parts, style: [...style, ...parts.style] }
}

function PlainStack({ parts }: { parts: PlainParts }) {
  return (
    <Plain
      tag={parts.tag ?? 'div'}
      classPrefix="chakra-stack"
      classFirst
      styleKey={plainKey('stack', parts.style, parts.css)}
      make={() => stylesOf(parts)}
      attributes={parts.attributes}
    />
  )
}

/**
 * Chakra's Stack. One whose props are single values (no separator, no responsive or conditional
 * value, no ref) is a plain element with the class and CSS Chakra would give it, worked out once
 * per process (decision 112).
 */
export const Stack = forwardRef<HTMLDivElement, StackProps>(function Stack(props, ref) {
  const parts = !import.meta.env.SSR || !DRAWS_PLAIN || ref ? null : stackParts(props, { direction: 'column' })
  if (!parts) return <ChakraStack ref={ref} {...props} />
  return <PlainStack parts={parts} />
})

/** Chakra's HStack (a row, its items centred), drawn plain as Stack is. */
export const HStack = forwardRef<HTMLDivElement, StackProps>(function HStack(props, ref) {
  const parts =
    !import.meta.env.SSR || !DRAWS_PLAIN || ref || props.direction !== undefined
      ? null
      : stackParts(props, { direction: 'row', align: 'center' })
  if (!parts) return <ChakraHStack ref={ref} {...props} />
  return <PlainStack parts={parts} />
})
