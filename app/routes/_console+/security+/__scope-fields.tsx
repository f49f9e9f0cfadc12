import type { FieldMetadata } from '@conform-to/react'
import { getSelectProps } from '@conform-to/react'
import { useEffect, useRef } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { describedBy, FieldShell, helpIdOf } from '~/components/forms/field-shell'
import { SelectField } from '~/components/forms/select-field'
import { SCOPE_LEVELS } from '~/schemas/security-values'
import { FormSelect } from '~/components/forms/form-select'

export type ScopeChoice = { level: string; value: string; label: string }

type Meta = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

const GROUPS: Record<string, string> = { org: 'Organization', project: 'Projects', table: 'Tables' }

/**
 * A scope level and the resource in it. With scripts the resource list shows only the chosen
 * level's resources; without them it shows all, grouped by level, and the server checks they agree.
 *
 * The resource select is the same element for the page's life (issue 54, point 10): re-keyed by
 * the level, as it was, a resource picked before the page hydrated was replaced by the field's
 * first value when the early Scope change was heard, and the form sent no resource. When the level
 * changes, the picked resource stays if it is of that level; else the level's only resource (the
 * organization) or none is picked, and conform is told.
 */
export function ScopeFields({
  level,
  resource,
  options,
  levelLabel = 'Scope',
  resourceLabel = 'Resource',
}: {
  level: Meta
  resource: Meta
  options: ScopeChoice[]
  levelLabel?: string
  resourceLabel?: string
}) {
  const isHydrated = useHydrated()
  const chosen = level.value ?? ''
  const shown = isHydrated && chosen ? options.filter((option) => option.level === chosen) : options
  const help = isHydrated ? undefined : 'Pick a resource of the scope chosen above.'
  const props = getSelectProps(resource)
  const resourceRef = useRef<HTMLSelectElement>(null)
  useEffect(() => {
    const select = resourceRef.current
    if (!isHydrated || !select) return
    const inLevel = options.filter((option) => option.level === chosen)
    if (!chosen || inLevel.some((option) => option.value === select.value)) return
    const next = inLevel.length === 1 ? inLevel[0]!.value : ''
    if (select.value === next && (resource.value ?? '') === next) return
    select.value = next
    select.dispatchEvent(new Event('input', { bubbles: true }))
    select.dispatchEvent(new Event('change', { bubbles: true }))
    // only a change of level moves the resource; the options are read as they are then
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chosen, isHydrated])
  return (
    <>
      <SelectField
        meta={level}
        label={levelLabel}
        options={SCOPE_LEVELS.map((l) => ({ value: l.value, label: l.label }))}
        placeholder="Select a scope"
      />
      <FieldShell meta={resource} label={resourceLabel} help={help}>
        <FormSelect
          {...props}
          key={props.key}
          ref={resourceRef}
          aria-describedby={describedBy(props['aria-describedby'], helpIdOf(resource, help))}
          isInvalid={Boolean(resource.errors?.length)}
        >
          <option value="">Select a resource</option>
          {Object.entries(GROUPS).map(([group, label]) => {
            const inGroup = shown.filter((option) => option.level === group)
            return inGroup.length ? (
              <optgroup key={group} label={label}>
                {inGroup.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </optgroup>
            ) : null
          })}
        </FormSelect>
      </FieldShell>
    </>
  )
}
