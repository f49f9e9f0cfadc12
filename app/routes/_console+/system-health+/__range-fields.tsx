import type { FieldMetadata } from '@conform-to/react'
import { Box } from '~/components/ui/box'
import { useHydrated } from 'remix-utils/use-hydrated'
import { Field } from '~/components/forms/field'
import { SelectField } from '~/components/forms/select-field'
import { CUSTOM_RANGE, RANGE_OPTIONS } from './__range'

type Meta = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

/**
 * The time range select and, for a custom range, From/To in UTC. Without scripts From/To are
 * always there (used only with "Custom range"); with scripts they show once it is picked.
 */
export function RangeFields({ range, from, to }: { range: Meta; from: Meta; to: Meta }) {
  const isHydrated = useHydrated()
  const isCustomShown = !isHydrated || range.value === CUSTOM_RANGE || Boolean(from.errors?.length || to.errors?.length)
  return (
    <>
      <Box minW="44">
        <SelectField meta={range} label="Time range" options={RANGE_OPTIONS} />
      </Box>
      {isCustomShown ? (
        <>
          <Box minW="52">
            <Field
              meta={from}
              type="datetime-local"
              label="From (UTC)"
              help={isHydrated ? undefined : 'With “Custom range”.'}
            />
          </Box>
          <Box minW="52">
            <Field meta={to} type="datetime-local" label="To (UTC)" help="At most 6 hours after From." />
          </Box>
        </>
      ) : null}
    </>
  )
}
