import { isTimezone } from '~/utils/timezone'
import { z } from 'zod'
import { setByThePage } from '~/utils/form-shape'
import { COLOR_MODES } from '~/utils/color-mode'

// Spec section 5, word for word. Conform turns an empty input into `undefined`, so the type error
// is the "required" message.
export const EmailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  // The HTML5 pattern (what type="email" accepts): zod's default wants a TLD and would refuse the
  // local cluster's admin@localhost.
  .pipe(z.email({ pattern: z.regexes.html5Email, error: 'Wrong email format' }))

const PasswordSchema = z.string({ error: 'Password is required' })

export const LoginFormSchema = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  /** Hidden: where the login goes after, as the page was opened with it (none: sent empty, read as absent). */
  prevUrl: setByThePage().optional(),
})
export type LoginForm = z.infer<typeof LoginFormSchema>

export const PasswordResetFormSchema = z.object({ email: EmailSchema })
export type PasswordResetForm = z.infer<typeof PasswordResetFormSchema>

const newPasswordFields = {
  new_password: z.string({ error: 'New password is required' }),
  confirm_password: z.string({ error: 'Repeat password is required' }),
}

function passwordsMatch(value: { new_password?: string; confirm_password?: string }, ctx: z.RefinementCtx) {
  if (value.new_password && value.confirm_password && value.new_password !== value.confirm_password) {
    ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: 'Passwords do not match' })
  }
}

/** Setting a password from the verification e-mail (no current password). */
export const SetPasswordFormSchema = z.object(newPasswordFields).superRefine(passwordsMatch)
export type SetPasswordForm = z.infer<typeof SetPasswordFormSchema>

export const ChangePasswordFormSchema = z
  .object({
    current_password: z.string({ error: 'You must enter the current password' }),
    ...newPasswordFields,
  })
  .superRefine(passwordsMatch)
export type ChangePasswordForm = z.infer<typeof ChangePasswordFormSchema>

/** The timezone field's message (Local, UTC or a zone of the list). */
export const TIMEZONE_MESSAGE = 'Choose Local, UTC or a time zone from the list'

export const TimezoneFormSchema = z.object({
  timezone: z.string({ error: TIMEZONE_MESSAGE }).refine((value) => isTimezone(value), { error: TIMEZONE_MESSAGE }),
})

const ThemeSchema = z.enum(COLOR_MODES, { error: 'Choose Light, Dark or System' })

/** The settings page: timezone and (when sent) theme. */
export const ProfileSettingsFormSchema = TimezoneFormSchema.extend({ theme: ThemeSchema.optional() })

/** The user menu's theme buttons: the theme, and the page to go back to. */
export const ThemeFormSchema = z.object({ theme: ThemeSchema, redirectTo: z.string().optional() })
