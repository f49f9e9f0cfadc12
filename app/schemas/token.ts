import { z } from 'zod'

/** Create token: pick a service account or name a new one; the expiry is optional (the cluster's default). */
export const CreateTokenFormSchema = z
  .object({
    service_account: z.string().optional(),
    name: z
      .string()
      .max(63, { error: 'Name must be under 64 symbols' })
      .regex(/^[A-Za-z0-9_.@-]+$/, { error: 'Use letters, digits and . _ - @ only' })
      .optional(),
    expiry: z.iso.date({ error: 'Enter a date' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.service_account && !value.name) {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: 'Choose a service account or enter a name for a new one',
      })
    }
  })
export type CreateTokenForm = z.infer<typeof CreateTokenFormSchema>
