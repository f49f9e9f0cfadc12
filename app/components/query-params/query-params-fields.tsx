import { type SystemStyleObject } from '@chakra-ui/react'
import { Box } from '~/components/ui/box'
import { memo, useMemo } from 'react'
import { PARAM_PREFIX } from '~/utils/sql-params'
import { findPlaceholders } from '~/utils/sql-placeholders'

/**
 * One input per `{name:Type}` placeholder of `sql` as the engine reads it (label the name, hint the
 * type), found again as the SQL is typed, named
 * `param_<name>` so the query form sends it beside the SQL, never in it (decision 100). An input
 * keeps what was typed while the SQL changes around it (its key is the name). `errors` are the
 * cluster's messages for values it refused, by name. Styled as the form it is in (`css`). The
 * editor loads it lazily, with the engine's lexer (the server renders it as part of the page).
 */
export const QueryParamsFields = memo(function QueryParamsFields({
  sql,
  values,
  errors,
  css,
}: {
  sql: string
  values: Record<string, string>
  errors: Record<string, string>
  css: SystemStyleObject
}) {
  const placeholders = useMemo(() => findPlaceholders(sql), [sql])
  if (!placeholders.length) return null
  return (
    <Box css={css}>
      <fieldset aria-describedby="params-help">
        <legend>Parameters</legend>
        <div data-help="" id="params-help" style={{ marginBottom: '0.5rem', marginTop: 0 }}>
          Each <code>{'{name:Type}'}</code> in the SQL takes its value here. It is sent beside the SQL as{' '}
          <code>{PARAM_PREFIX}name</code> and the cluster binds it: it is never written into the statement.
        </div>
        <div data-grid="">
          {placeholders.map(({ name, type }) => {
            const id = `param-${name}`
            const error = errors[name]
            return (
              <div key={name}>
                <label htmlFor={id}>{name}</label>
                <input
                  id={id}
                  name={`${PARAM_PREFIX}${name}`}
                  type="text"
                  defaultValue={values[name] ?? ''}
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={[`${id}-type`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
                />
                <div data-help="" id={`${id}-type`}>
                  {type}
                </div>
                {error ? (
                  <div data-error="" id={`${id}-error`}>
                    {error}
                  </div>
                ) : null}
              </div>
            )
          })}
        </div>
      </fieldset>
    </Box>
  )
})
