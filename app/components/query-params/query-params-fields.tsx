import { memo } from 'react'
import { PARAM_PREFIX, type SqlPlaceholder } from '~/utils/sql-params'

/**
 * One input per `{name:Type}` placeholder of the SQL (label the name, hint the type), named
 * `param_<name>` so the query form sends it beside the SQL, never in it (decision 100). An input
 * keeps what was typed while the SQL changes around it (its key is the name). `errors` are the
 * cluster's messages for values it refused, by name. Styled by the form it is in.
 */
export const QueryParamsFields = memo(function QueryParamsFields({
  placeholders,
  values,
  errors,
}: {
  placeholders: SqlPlaceholder[]
  values: Record<string, string>
  errors: Record<string, string>
}) {
  if (!placeholders.length) return null
  return (
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
  )
})
