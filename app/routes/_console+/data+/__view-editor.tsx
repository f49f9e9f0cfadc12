import { getCollectionProps, type SubmissionResult } from '@conform-to/react'
import { originalOf } from '~/utils/edit-conflict'
import { chakra, SimpleGrid } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { HStack } from '~/components/ui/stack'
import { Button } from '~/components/ui/button'
import { Form, Link } from '@remix-run/react'
import { ErrorList } from '~/components/forms/error-list'
import { Field } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { SelectField } from '~/components/forms/select-field'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { InlineAlert } from '~/components/layout/inline-alert'
import { AUTO_VIEW_NAME } from '~/schemas/view-values'
import type { ViewFormSchema } from '~/schemas/view'
import type { ViewChoice } from './__view-editor.server'
import { TableSearchField, type PickerSearch } from '~/components/forms/table-search-field'

// Fetched after hydration; the HTML constraints come from the loader (decision 032).
const loadViewSchemas = () => import('~/schemas/view')
type ViewSchemas = typeof import('~/schemas/view')

/**
 * The first step of a new view without a table yet: a GET form that picks it among what the search
 * finds (issue 33: never every table of the org); works without scripts, suggests as one types with them.
 */
export function ViewTablePicker({ search }: { search: PickerSearch }) {
  return (
    <Box bg="bg" borderWidth="1px" rounded="md" p="6">
      <Form method="get">
        <TableSearchField
          search={search}
          idName="table"
          qName="table_q"
          idPrefix="view-table"
          kind="raw"
          optionValue={(choice) => `${choice.projectId}/${choice.uuid}`}
        />
        <Button type="submit" mt="3" size="sm" variant="outline">
          Choose table
        </Button>
      </Form>
    </Box>
  )
}

/**
 * The view form (new and edit): the table (fixed here), name, description, parent view and the
 * output columns, picked from the parent view's (with scripts the list follows the parent picked;
 * without them it lists auto_view's, which holds every column, and the server checks the parent).
 */
export function ViewEditor({
  table,
  tableLabel,
  views,
  hasAutoView,
  defaults,
  lastResult,
  submitLabel,
  cancelTo,
  changeTableTo,
  excludeViewId,
  deniedReason,
  constraint,
}: {
  table: string
  tableLabel: string
  views: ViewChoice[]
  hasAutoView: boolean
  /** `getZodConstraint(ViewFormSchema)`, from the loader. */
  constraint: FormConstraint
  /** `original`: the edit form's rendered values as JSON (a save writes only what differs). */
  defaults: { name?: string; description?: string; parentView?: string; outputColumns?: string[]; original?: string }
  lastResult?: SubmissionResult<string[]>
  submitLabel: string
  cancelTo: string
  changeTableTo?: string
  excludeViewId?: string
  /** Why the user may not save (`whyNot` in the loader): the submit shows disabled with it. */
  deniedReason?: string | null
}) {
  const parents = views.filter((view) => view.uuid !== excludeViewId)
  const autoView = parents.find((view) => view.name === AUTO_VIEW_NAME)
  const [form, fields] = useLazySchemaForm<typeof ViewFormSchema, ViewSchemas>(loadViewSchemas, {
    // on edit, the fields still as stored are not checked again, as in the action (decision 103)
    schemaOf: (schemas, formData) =>
      formData.has('original') ? schemas.viewEditForm.schemaOf(formData, undefined) : schemas.ViewFormSchema,
    id: 'view-editor',
    constraint,
    lastResult,
    defaultValue: {
      table,
      parentView: defaults.parentView ?? autoView?.uuid,
      name: defaults.name,
      description: defaults.description,
      outputColumns: defaults.outputColumns,
    },
  })
  const parent = parents.find((view) => view.uuid === fields.parentView.value) ?? autoView
  const options = (parent?.columns ?? []).map((column) => column.name)
  const checkboxes = getCollectionProps(fields.outputColumns, { type: 'checkbox', options })
  // on edit: the view's columns the parent lacks (taken from other views); a save keeps them as they are
  const kept = excludeViewId ? (defaults.outputColumns ?? []).filter((name) => !options.includes(name)) : []
  return (
    <FormCard deniedReason={deniedReason} form={form} submit={{ label: submitLabel }} cancelTo={cancelTo}>
      <input type="hidden" name="table" value={table} />
      {originalOf(lastResult, defaults.original) ? (
        <input type="hidden" name="original" value={originalOf(lastResult, defaults.original)} />
      ) : null}
      <Box mb="4">
        <Text fontWeight="medium" fontSize="sm" mb="1">
          Table
        </Text>
        <HStack>
          <code>{tableLabel}</code>
          {changeTableTo ? (
            <Link to={changeTableTo}>
              <Text as="span" fontSize="sm" color="link">
                Change table
              </Text>
            </Link>
          ) : null}
        </HStack>
        <ErrorList id={fields.table.errorId} errors={fields.table.errors} />
      </Box>
      {!hasAutoView ? (
        <Box mb="4">
          <InlineAlert title="The table must contain auto_view">
            A table gets its auto_view (every column) when its first transform is published. Publish a transform, then
            make the view.
          </InlineAlert>
        </Box>
      ) : null}
      <Field meta={fields.name} label="View name" inputProps={{ autoComplete: 'off' }} />
      <Field meta={fields.description} label="Description" />
      <SelectField
        meta={fields.parentView}
        label="Parent view"
        placeholder="Select a parent view"
        options={parents.map((view) => ({ value: view.uuid, label: view.name }))}
        help="The view's columns are chosen from the parent's."
      />
      <Box
        as="fieldset"
        mb="4"
        aria-describedby={fields.outputColumns.errors?.length ? fields.outputColumns.errorId : undefined}
      >
        <chakra.legend fontWeight="medium" fontSize="sm" mb="1">
          Output columns
        </chakra.legend>
        {options.length ? (
          <SimpleGrid columns={{ base: 1, md: 3 }} gap="1">
            {checkboxes.map((props) => (
              <chakra.label key={props.key} display="inline-flex" alignItems="center" gap="2" fontSize="sm">
                <input {...props} key={props.key} />
                {props.value}
                <Text as="span" color="fg.muted" fontSize="xs">
                  {parent?.columns.find((column) => column.name === props.value)?.type}
                </Text>
              </chakra.label>
            ))}
          </SimpleGrid>
        ) : (
          <Text color="fg.muted" fontSize="sm">
            The parent view has no columns.
          </Text>
        )}
        {kept.length ? (
          <Text color="fg.muted" fontSize="sm" mt="2" data-testid="view-kept-columns">
            Also kept as they are, not in {parent?.name ?? 'the parent view'}: {kept.join(', ')}.
          </Text>
        ) : null}
        <ErrorList id={fields.outputColumns.errorId} errors={fields.outputColumns.errors} />
      </Box>
    </FormCard>
  )
}
