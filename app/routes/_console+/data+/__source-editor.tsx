import type { SubmissionResult } from '@conform-to/react'
import { SimpleGrid } from '@chakra-ui/react'
import { Box, Text } from '~/components/ui/box'
import { Heading } from '~/components/ui/heading'
import { Field, TextareaField } from '~/components/forms/field'
import { FormCard } from '~/components/forms/form-card'
import { SelectField } from '~/components/forms/select-field'
import { useLazySchemaForm, type FormConstraint } from '~/components/forms/use-lazy-schema-form'
import { KAFKA_OFFSETS, type SourceKind } from '~/schemas/source-values'
import { withCurrent } from '~/schemas/lossless'
import { originalOf } from '~/utils/edit-conflict'
import type { ReactNode } from 'react'

// The schemas come after hydration (decision 077): zod stays out of the source pages' first load.
const loadSourceSchemas = () => import('~/schemas/source')

/**
 * The ingest source form for one kind: name, transform, the kind's settings, then scale. Secrets
 * are never filled in from the server; on edit a blank secret keeps the stored one.
 */
export function SourceEditor({
  kind,
  table,
  tableLabel,
  transforms,
  defaultValue,
  constraint,
  lastResult,
  submitLabel,
  cancelTo,
  isEdit,
  deniedReason,
}: {
  kind: SourceKind
  /** `projectId/tableId`, sent as a hidden field. */
  table: string
  tableLabel: string
  transforms: string[]
  defaultValue: Record<string, unknown>
  /** `getZodConstraint(sourceSchemaFor(kind, isEdit))` from the loader. */
  constraint: FormConstraint
  lastResult?: SubmissionResult<string[]>
  submitLabel: string
  cancelTo: string
  isEdit: boolean
  /** Why the user may not save (`whyNot` in the loader): the submit shows disabled with it. */
  deniedReason?: string | null
}) {
  const [form, fields] = useLazySchemaForm(loadSourceSchemas, {
    // on edit, the fields still as stored are not checked again, as in the action (decision 072)
    schemaOf: (schemas, formData) =>
      isEdit ? schemas.sourceEditForm.schemaOf(formData, kind) : schemas.sourceSchemaFor(kind, false),
    id: `source-${kind}`,
    constraint,
    lastResult,
    defaultValue: defaultValue as never,
    shouldValidate: 'onSubmit',
  })
  const f = fields as unknown as Record<string, Parameters<typeof Field>[0]['meta']>
  const secretHelp = isEdit ? 'Stored; leave blank to keep it.' : undefined
  return (
    <FormCard deniedReason={deniedReason} form={form} submit={{ label: submitLabel }} cancelTo={cancelTo}>
      <input type="hidden" name="table" value={table} />
      {isEdit && originalOf(lastResult, defaultValue.original) ? (
        <input type="hidden" name="original" value={originalOf(lastResult, defaultValue.original)} />
      ) : null}
      <Text mb="4" fontSize="sm">
        Table: <strong>{tableLabel}</strong>
      </Text>
      <SimpleGrid columns={{ base: 1, md: 2 }} gapX="4">
        <Field
          meta={f.name!}
          label="Source name"
          help="At most 27 symbols; the source's pool takes this name."
          inputProps={{ autoComplete: 'off' }}
        />
        <SelectField
          meta={f.transform as never}
          label="Transform"
          placeholder={transforms.length ? 'Select a transform' : 'The table has no transforms'}
          options={transforms.map((name) => ({ value: name, label: name }))}
        />
      </SimpleGrid>
      <TextareaField meta={f.description as never} label="Description" rows={2} />

      {kind === 'kafka' ? (
        <Group title="Kafka">
          <Field meta={f.bootstrapServers!} label="Bootstrap servers" help="host:port, separated by commas." />
          <Field meta={f.topics!} label="Topics" help="Separated by commas." />
          <SimpleGrid columns={{ base: 1, md: 3 }} gapX="4">
            <Field meta={f.readTimeout!} label="Read timeout (seconds)" inputProps={{ inputMode: 'numeric' }} />
            <Field meta={f.maxWait!} label="Max wait (milliseconds)" inputProps={{ inputMode: 'numeric' }} />
            <SelectField
              meta={f.offset as never}
              label="Offset"
              // a stored offset the list lacks (another client's: a number, smallest) is offered as it is
              options={withCurrent(KAFKA_OFFSETS, f.offset?.initialValue)
                .filter(Boolean)
                .map((value) => ({ value, label: value }))}
            />
          </SimpleGrid>
        </Group>
      ) : null}
      {kind === 'kinesis' ? (
        <Group title="Kinesis">
          <SimpleGrid columns={{ base: 1, md: 2 }} gapX="4">
            <Field meta={f.streamName!} label="Stream name" help="The stream's name or ARN." />
            <Field meta={f.region!} label="Region" />
            <Field
              meta={f.checkpointer!}
              label="Checkpointer"
              help="The DynamoDB table (resource identifier) that keeps the read position."
            />
            <Field meta={f.datastoreProjectId!} label="Datastore project ID" />
            <Field meta={f.accessKeyId!} label="Cloud access key" />
            <Field
              meta={f.secretAccessKey!}
              label="Cloud secret"
              type="password"
              help={secretHelp}
              inputProps={{ autoComplete: 'off' }}
            />
            <Field meta={f.roleArn!} label="Cloud role" />
          </SimpleGrid>
          {isEdit && defaultValue.hasStoredSecret ? <input type="hidden" name="hasStoredSecret" value="on" /> : null}
        </Group>
      ) : null}
      {kind === 'siem' ? (
        <Group title="Security-event feed">
          <SimpleGrid columns={{ base: 1, md: 2 }} gapX="4">
            <Field meta={f.host!} label="Host" />
            <Field meta={f.configId!} label="Configuration ID" help="The web security configuration ID." />
            <Field
              meta={f.clientSecret!}
              label="Client secret"
              type="password"
              help={secretHelp}
              inputProps={{ autoComplete: 'off' }}
            />
            <Field
              meta={f.clientToken!}
              label="Client token"
              type="password"
              help={secretHelp}
              inputProps={{ autoComplete: 'off' }}
            />
            <Field
              meta={f.accessToken!}
              label="Access token"
              type="password"
              help={secretHelp}
              inputProps={{ autoComplete: 'off' }}
            />
          </SimpleGrid>
        </Group>
      ) : null}

      <Group title="Scale">
        <SimpleGrid columns={{ base: 2, md: 5 }} gapX="4">
          <Field meta={f.replicasMin!} label="Min replicas" inputProps={{ inputMode: 'numeric' }} />
          <Field
            meta={f.replicasMax!}
            label="Max replicas"
            help="Empty: a fixed count."
            inputProps={{ inputMode: 'numeric' }}
          />
          <Field meta={f.cpu!} label="CPU" inputProps={{ inputMode: 'decimal' }} />
          <Field meta={f.memory!} label="Memory (GiB)" inputProps={{ inputMode: 'decimal' }} />
          <Field meta={f.storage!} label="Storage (GiB)" inputProps={{ inputMode: 'decimal' }} />
        </SimpleGrid>
      </Group>
    </FormCard>
  )
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box as="fieldset" borderTopWidth="1px" pt="4" mt="2" mb="2">
      <Heading as="h2" size="sm" mb="3">
        {title}
      </Heading>
      {children}
    </Box>
  )
}
