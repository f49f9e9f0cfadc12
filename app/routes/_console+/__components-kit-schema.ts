import { z } from 'zod'

/** A sample create form: what a section's `<Noun>FormSchema` looks like. */
export const SampleFormSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .max(63, { error: 'Name must be under 64 symbols' })
    .regex(/^[a-z0-9_]+$/, { error: 'Name may hold lower-case letters, digits and underscores' }),
  description: z.string().optional(),
  kind: z.enum(['turbine', 'summary'], { error: 'Kind is required' }),
  isEnabled: z.literal('on').optional(),
  // Shown disabled: a disabled input is not sent.
  owner: z.string().optional(),
})
