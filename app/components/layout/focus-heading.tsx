import { Heading } from '~/components/ui/heading'
import { useEffect, useRef, type ReactNode } from 'react'

/**
 * A panel's heading that takes focus when it appears (with scripts the page does not reload, so
 * this is what gets read out). `isFocusedOnShow` false keeps focus where it is (several on a page).
 */
export function FocusHeading({
  id,
  children,
  level = 2,
  isFocusedOnShow = true,
}: {
  id: string
  children: ReactNode
  level?: 2 | 3
  isFocusedOnShow?: boolean
}) {
  const ref = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (isFocusedOnShow) ref.current?.focus()
  }, [isFocusedOnShow])
  return (
    <Heading as={`h${level}`} id={id} size="md" mb="2" ref={ref} tabIndex={-1} outline="none">
      {children}
    </Heading>
  )
}
