import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useFocusOnRefusal } from '~/components/forms/focus-on-refusal'
import { FirstErrorContext } from '~/components/forms/field-shell'
import { firstErrorOf } from '~/components/forms/form-card'
import { chakra, SimpleGrid } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Heading } from '~/components/ui/heading'
import { Form, Link } from '@remix-run/react'
import { useEffect, useRef, useState, type ChangeEvent } from 'react'
import { useHydrated } from 'remix-utils/use-hydrated'
import { ErrorList } from '~/components/forms/error-list'
import { Field, TextareaField } from '~/components/forms/field'
import { FormErrors } from '~/components/forms/form-errors'
import { SubmitButton } from '~/components/forms/submit-button'
import { parsePolicies, SCOPE_LEVELS, type StagedPolicy } from '~/schemas/security-values'
import type { PermissionsByLevel, RoleDraft } from './__role-editor.server'
import { ScopeFields, type ScopeChoice } from './__scope-fields'
import type { PickerChoice } from '~/components/forms/table-search-field'
import { withBase } from '~/utils/base-path'
import { useLazySchemaForm } from '~/components/forms/use-lazy-schema-form'
import type { roleFormSchema as RoleFormSchema } from '~/schemas/security'

// Fetched after hydration (decision 032); the schema follows the button pressed, so the form has no HTML constraints.
const loadRoleSchemas = () => import('~/schemas/security')

/** "view_table" → "table"; permissions are grouped by what they act on. */
const resourceOf = (permission: string) => permission.slice(permission.indexOf('_') + 1)

function describe(scopes: ScopeChoice[], policy: StagedPolicy) {
  if (!policy.scope_type) return 'Everywhere'
  if (policy.scope_type === 'org') return 'Organization'
  const known = scopes.find((scope) => scope.level === policy.scope_type && scope.value === policy.scope_id)
  const level = SCOPE_LEVELS.find((l) => l.value === policy.scope_type)?.label ?? policy.scope_type
  return `${level} ${known?.label ?? policy.scope_id ?? ''}`.trim()
}

/**
 * The role form: name and description, the staged policies (each with Remove), and the policy
 * builder (scope level, scope, permissions; Add policy, Add All, List All). Every button posts the
 * whole form; the staged policies travel in the hidden `policies` field, so nothing is lost between
 * submissions, and nothing reaches the cluster until Save. Render it with `key={revision}`: each
 * staging answer is a fresh form.
 */
export function RoleEditor({
  draft,
  saved,
  original,
  scopes,
  scopeSearch,
  catalogue,
  revision,
  lastResult,
  note,
  submitLabel,
  cancelTo,
}: {
  draft: RoleDraft
  /** The policies published now (none for a new role): staged ones that differ are marked unsaved. */
  saved: StagedPolicy[]
  /** An edit form's rendered name, description and policies (JSON): Save writes only what changed (decision 074). */
  original?: string | null
  scopes: ScopeChoice[]
  /** The table search the scopes came from (issue 33: tables are a search away, never all listed). */
  scopeSearch: { q: string; choices: PickerChoice[]; hasMore: boolean }
  catalogue: PermissionsByLevel
  revision: string
  lastResult?: SubmissionResult<string[]>
  note?: string | null
  submitLabel: string
  cancelTo: string
}) {
  const isHydrated = useHydrated()
  const [initial] = useState(() => ({ ...draft, policies: JSON.stringify(draft.policies) }))
  const { found, onType, searchRef } = useScopeSuggestions(scopeSearch)
  const [form, fields] = useLazySchemaForm<ReturnType<typeof RoleFormSchema>, typeof import('~/schemas/security')>(
    loadRoleSchemas,
    {
      id: 'role-editor',
      lastResult,
      // one object for the form's life: the editor is re-keyed for each new draft
      defaultValue: initial,
      shouldValidate: 'onSubmit',
      shouldRevalidate: 'onSubmit',
      // on edit, the fields still as stored are not checked again, as in the action (decision 103)
      schemaOf: (schemas, formData) => schemas.roleEditForm.schemaOf(formData, undefined),
    },
  )
  useFocusOnRefusal('role-editor', form.errorId)
  // without scripts the page loads with focus on the first error, as in a FormCard
  const firstError = firstErrorOf(form)
  const staged = parsePolicies(String(fields.policies.initialValue ?? '')) ?? draft.policies
  const policiesText = JSON.stringify(staged)
  const offeredScopes = withFoundTables(scopes, scopeSearch.choices, found.choices, [
    ...staged.filter((policy) => policy.scope_type === 'table').map((policy) => policy.scope_id),
    draft.scopeLevel === 'table' ? draft.scope : null,
  ])
  const isDirty = policiesText !== JSON.stringify(saved)
  const level = (fields.scopeLevel.value ?? draft.scopeLevel) as keyof PermissionsByLevel
  const renderedLevel = isHydrated
    ? level
    : (((fields.scopeLevel.initialValue as string | undefined) ?? draft.scopeLevel) as keyof PermissionsByLevel)
  const offered = catalogue[renderedLevel] ?? []
  const checked = new Set(
    ([] as string[]).concat((fields.permissions.initialValue as string[] | string | undefined) ?? []),
  )
  const groups = new Map<string, string[]>()
  for (const permission of offered)
    groups.set(resourceOf(permission), [...(groups.get(resourceOf(permission)) ?? []), permission])

  return (
    <Box bg="bg" borderWidth="1px" rounded="md" p="6">
      <Form method="post" {...getFormProps(form)} noValidate>
        {/* Enter in a text field saves the role (the form's first submit button), never a Remove. */}
        <chakra.button
          type="submit"
          name="intent"
          value="save"
          tabIndex={-1}
          aria-hidden="true"
          position="absolute"
          left="-9999px"
          w="1px"
          h="1px"
          overflow="hidden"
        >
          {submitLabel}
        </chakra.button>
        <input type="hidden" name="revision" value={revision} />
        <input type="hidden" name={fields.policies.name} value={policiesText} />
        {original ? <input type="hidden" name="original" value={original} /> : null}
        <FormErrors id={form.errorId} errors={form.errors} isFocused={firstError === ''} />
        <FirstErrorContext.Provider value={firstError}>
          <Field
            meta={fields.name}
            label="Name"
            help='Letters, digits, "_" and "-".'
            inputProps={{ autoComplete: 'off' }}
          />
          <TextareaField meta={fields.description} label="Description" rows={2} />

          <Box as="section" aria-labelledby="staged-heading" mb="6">
            <Heading as="h3" id="staged-heading" size="sm" mb="2">
              Policies
            </Heading>
            <Box role="status" fontSize="sm" mb="2" color={isDirty ? 'orange.fg' : 'fg.muted'}>
              {note ? `${note} ` : ''}
              {isDirty
                ? 'Unsaved changes: the policies below are published only when you save the role.'
                : 'No unsaved policy changes.'}
            </Box>
            {staged.length ? (
              <Box as="ol" listStyleType="none" m="0" p="0" borderWidth="1px" rounded="md">
                {staged.map((policy, index) => (
                  <HStack
                    as="li"
                    key={`${policy.scope_type}-${policy.scope_id}-${index}`}
                    justify="space-between"
                    align="start"
                    px="3"
                    py="2"
                    borderBottomWidth={index < staged.length - 1 ? '1px' : '0'}
                  >
                    <Box fontSize="sm">
                      <Text fontWeight="medium">{describe(scopes, policy)}</Text>
                      <Text color="fg.muted" fontSize="xs">
                        {policy.permissions.length} {policy.permissions.length === 1 ? 'permission' : 'permissions'}:{' '}
                        {policy.permissions.slice(0, 8).join(', ')}
                        {policy.permissions.length > 8 ? `, and ${policy.permissions.length - 8} more` : ''}
                      </Text>
                    </Box>
                    <Button
                      type="submit"
                      name="intent"
                      value={`remove-policy:${index}`}
                      size="xs"
                      variant="outline"
                      formNoValidate
                      aria-label={`Remove the policy on ${describe(scopes, policy)}`}
                    >
                      Remove
                    </Button>
                  </HStack>
                ))}
              </Box>
            ) : (
              <Text fontSize="sm" color="fg.muted">
                No policies yet: add at least one below.
              </Text>
            )}
            {/* the staged list has no input to mark invalid: its error is announced */}
            <Box role={fields.policies.errors?.length ? 'alert' : undefined}>
              <ErrorList id={fields.policies.errorId} errors={fields.policies.errors} />
            </Box>
          </Box>

          <Box as="fieldset" borderWidth="1px" rounded="md" p="4" mb="6" bg="bg.subtle">
            <chakra.legend px="1" fontWeight="medium" fontSize="sm">
              Add a policy
            </chakra.legend>
            <ScopeFields
              level={fields.scopeLevel}
              resource={fields.scope}
              options={offeredScopes}
              levelLabel="Scope level"
              resourceLabel="Scope"
            />
            <HStack gap="2" align="end" wrap="wrap" mb="4" className="cc-find">
              <Box minW="16rem">
                <chakra.label htmlFor="scope-q" display="block" fontSize="sm" mb="1">
                  Find a table to scope to
                </chakra.label>
                <input
                  id="scope-q"
                  type="search"
                  name="scope_q"
                  defaultValue={scopeSearch.q}
                  placeholder="project.table or part of a name"
                  autoComplete="off"
                  aria-describedby="scope-q-status"
                  ref={searchRef}
                  onChange={onType}
                />
              </Box>
              <Button type="submit" name="intent" value="find-scope" size="sm" h="9" variant="outline" formNoValidate>
                Find
              </Button>
              <Box id="scope-q-status" role="status" fontSize="xs" color="fg.muted" flexBasis="100%">
                {found.choices.length
                  ? `The scope list offers ${found.hasMore ? 'the first ' : ''}${found.choices.length} ` +
                    `${found.choices.length === 1 ? 'table' : 'tables'}${found.q ? ` matching “${found.q}”` : ''}` +
                    `${found.hasMore ? ': search to find another' : ''}.`
                  : found.q
                    ? `No table matches “${found.q}”.`
                    : 'No tables yet.'}
              </Box>
            </HStack>
            {isHydrated ? null : (
              <Box mb="4">
                <Button type="submit" name="intent" value="choose-level" size="xs" variant="outline" formNoValidate>
                  Show this scope level's permissions
                </Button>
              </Box>
            )}
            <chakra.fieldset mb="2" aria-describedby={fields.permissions.errorId}>
              <chakra.legend fontWeight="medium" fontSize="sm" mb="1">
                Permissions ({SCOPE_LEVELS.find((l) => l.value === renderedLevel)?.label.toLowerCase()} scope)
              </chakra.legend>
              <SimpleGrid
                columns={{ base: 1, md: 2, xl: 3 }}
                gap="2"
                maxH="72"
                overflowY="auto"
                borderWidth="1px"
                rounded="md"
                p="2"
                bg="bg"
              >
                {[...groups.entries()].map(([resource, permissions]) => (
                  <Box key={`${renderedLevel}-${resource}`} fontSize="xs">
                    <Text fontWeight="medium" color="fg.muted">
                      {resource}
                    </Text>
                    {permissions.map((permission) => (
                      <chakra.label
                        key={`${renderedLevel}-${permission}`}
                        display="flex"
                        alignItems="center"
                        gap="1.5"
                        cursor="pointer"
                      >
                        <input
                          type="checkbox"
                          name={fields.permissions.name}
                          value={permission}
                          defaultChecked={checked.has(permission)}
                        />
                        {permission}
                      </chakra.label>
                    ))}
                  </Box>
                ))}
              </SimpleGrid>
              <ErrorList id={fields.permissions.errorId} errors={fields.permissions.errors} />
            </chakra.fieldset>
            <HStack gap="2" wrap="wrap">
              <Button type="submit" name="intent" value="add-policy" size="sm" variant="outline" formNoValidate>
                Add policy
              </Button>
              <Button type="submit" name="intent" value="add-all" size="sm" variant="outline" formNoValidate>
                Add All
              </Button>
              <Button type="submit" name="intent" value="list-all" size="sm" variant="outline" formNoValidate>
                List All
              </Button>
            </HStack>
            <Text fontSize="xs" color="fg.muted" mt="2">
              Add All stages every permission of the scope level; List All stages its view permissions only. Staged
              policies are published when you save the role.
            </Text>
          </Box>

          <HStack gap="3">
            <SubmitButton name="intent" value="save">
              {submitLabel}
            </SubmitButton>
            <Button asChild variant="outline">
              <Link to={cancelTo}>Cancel</Link>
            </Button>
          </HStack>
        </FirstErrorContext.Provider>
      </Form>
    </Box>
  )
}

/**
 * The scopes offered once the search has changed as one types: the org, the projects and the tables
 * named by id (staged policies, the chosen scope) as the page gave them, and the tables `typed`
 * found instead of those the page's search found (`searched`).
 */
export function withFoundTables(
  scopes: ScopeChoice[],
  searched: PickerChoice[],
  typed: PickerChoice[],
  named: (string | null | undefined)[] = [],
): ScopeChoice[] {
  const fromSearch = new Set(searched.map((choice) => choice.uuid))
  const kept = scopes.filter(
    (scope) => scope.level !== 'table' || !fromSearch.has(scope.value) || named.includes(scope.value),
  )
  const seen = new Set(kept.filter((scope) => scope.level === 'table').map((scope) => scope.value))
  return [
    ...kept,
    ...typed
      .filter((choice) => !seen.has(choice.uuid) && seen.add(choice.uuid))
      .map((choice) => ({ level: 'table', value: choice.uuid, label: `${choice.project}.${choice.name}` })),
  ]
}

/**
 * The tables the scope list offers as one types (with scripts; issue 33): the page's search first,
 * then what /resources/table-search?kind=scope answers 200 ms after the last key (the query page's
 * picker resource; `scope` keeps the console's store). Kept here, small: the role form's first-load
 * JS is at its ceiling (bench/js-budget.ts).
 */
function useScopeSuggestions(search: { q: string; choices: PickerChoice[]; hasMore: boolean }) {
  const [found, setFound] = useState(search)
  const timer = useRef<ReturnType<typeof setTimeout>>()
  const pending = useRef<AbortController>()
  useEffect(
    () => () => {
      clearTimeout(timer.current)
      pending.current?.abort()
    },
    [],
  )
  const searchFor = (q: string) => {
    clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      pending.current?.abort()
      const controller = (pending.current = new AbortController())
      fetch(withBase(`/resources/table-search?kind=scope&q=${encodeURIComponent(q)}`), { signal: controller.signal })
        .then((response) => (response.ok ? response.json() : null))
        .then((answer: { choices: PickerChoice[]; hasMore: boolean } | null) => {
          if (answer) setFound({ q, choices: answer.choices, hasMore: answer.hasMore })
        })
        // the list stays as it was; Find still searches
        .catch(() => undefined)
    }, 200)
  }
  const onType = (event: ChangeEvent<HTMLInputElement>) => searchFor(event.currentTarget.value)
  // a search typed before the page hydrated (React hears no change for it): the list follows it
  // once the page is React's, as it would have as it was typed (issue 54, point 10)
  const searchRef = useRef<HTMLInputElement>(null)
  useEffect(() => {
    const typed = searchRef.current?.value ?? ''
    if (typed !== search.q) searchFor(typed)
    // only on mount: later typing is heard as it happens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return { found, onType, searchRef }
}
