import type { ReactNode } from 'react'
import { InlineAlert } from './inline-alert'

/**
 * A creation page's form, or, when the signed-in user may not create it (`whyNotCreate` in the
 * loader), the reason in its place: "Needs add_table: ask an org admin." The same with and without
 * scripts, so a page opened by its URL never offers a form whose Save the cluster would refuse.
 */
export function CreationGate({
  denied,
  title,
  children,
}: {
  /** The loader's reason (null: the form is shown). */
  denied: string | null | undefined
  /** What the user cannot do: "You cannot create tables". */
  title: string
  children: ReactNode
}) {
  if (!denied) return <>{children}</>
  return <InlineAlert title={title}>{denied}: ask an org admin.</InlineAlert>
}
