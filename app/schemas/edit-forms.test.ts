import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { isEditForm, type EditForm } from './lossless'

/*
 * Decision 103: every editor's lossless form is declared once in its schema module (`defineEditForm`),
 * and both the browser's check and the action's parse come from it. Found by a glob, so a new
 * editor's form is covered here without editing this test.
 */

const schemaModules = import.meta.glob<Record<string, unknown>>(['./*.ts', '!./*.test.ts'], { eager: true })
const editForms: EditForm<unknown>[] = Object.values(schemaModules).flatMap((module) =>
  Object.values(module).filter(isEditForm),
)

const routeSources = import.meta.glob<string>('../routes/**/*.{ts,tsx}', {
  query: '?raw',
  import: 'default',
  eager: true,
})

/** An edit form as a browser posts it unchanged: each field as rendered, and the rendered values as `original`. */
function postedUnchanged(rendered: Record<string, string | string[]>) {
  const formData = new FormData()
  for (const [name, value] of Object.entries(rendered))
    for (const item of Array.isArray(value) ? value : [value]) formData.append(name, item)
  formData.set('original', JSON.stringify(rendered))
  return formData
}

/**
 * Editors whose browser check keeps what the action keeps by a rule of their own (each named in
 * decision 092 or 074), not yet declared with `defineEditForm`.
 */
const OWN_RULE: Record<string, string> = {
  'data+/__table-settings.tsx': 'keptSettingFields: per settings group, by stored path or JSON value (decision 092)',
  'security+/users.$userId.edit-user.tsx': 'roles added or removed only: no rule refuses a stored value (074)',
}

describe('edit forms: the browser keeps what the action keeps (decision 103)', () => {
  it('finds every editor declared in app/schemas', () => {
    expect(editForms.map((form) => form.name)).toEqual(
      expect.arrayContaining([
        'bucket',
        'pool',
        'credential',
        'view',
        'summary settings',
        'function',
        'auto batch entry',
        'source',
        'dictionary',
        'role',
      ]),
    )
  })

  it.each(editForms.map((form) => [form.name, form] as const))(
    '%s: a stored value the strict rule refuses, posted unchanged, passes its check',
    (_name, form) => {
      const formData = postedUnchanged(form.example.rendered)
      // the example must hold a value the strict rule refuses, or this test proves nothing
      expect(parseWithZod(formData, { schema: form.example.strict }).status).toBe('error')
      const submission = parseWithZod(formData, { schema: form.schemaOf(formData, form.example.context) })
      expect(submission.status === 'success' ? {} : submission.error).toEqual({})
      // without its original the same form is checked in full, as a new object's is
      formData.delete('original')
      expect(form.kept(formData, form.example.context)).toEqual([])
      expect(parseWithZod(formData, { schema: form.schemaOf(formData, form.example.context) }).status).toBe('error')
    },
  )

  const editorFiles = Object.entries(routeSources).filter(
    ([path, text]) => path.endsWith('.tsx') && text.includes('name="original"') && /useLazySchemaForm[<(]/.test(text),
  )
  const servers = Object.entries(routeSources).filter(([path]) => path.endsWith('.server.ts'))

  it.each(editorFiles.map(([path, text]) => [path.replace('../routes/_console+/', ''), text] as const))(
    '%s: its browser check comes from an edit form the action also parses with',
    (path, text) => {
      if (OWN_RULE[path]) return
      const used = [...new Set([...text.matchAll(/\b(?!load)([a-z]\w*EditForm)\b/g)].map((match) => match[1]!))]
      expect(
        used,
        `${path} renders an original but checks with no edit form (declare one with defineEditForm)`,
      ).not.toEqual([])
      expect(text).toMatch(/schemaOf: \([^)]*\)(?:: \w+)? =>[\s\S]{0,600}\.schemaOf\(formData/)
      for (const name of used)
        expect(
          servers.some(
            ([, server]) =>
              server.includes(`${name}.schemaOf(`) ||
              server.includes(`${name}.kept(`) ||
              new RegExp(`parseEdit\\([^)]*\\b${name}\\b`).test(server),
          ),
          `no action parses with ${name}`,
        ).toBe(true)
    },
  )
})
