import type { FieldMetadata } from '@conform-to/react'
import { getSelectProps } from '@conform-to/react'
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
          key={`${props.key}-${isHydrated ? chosen : 'all'}`}
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
