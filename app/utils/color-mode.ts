/** The theme preference (light, dark, or the system's), safe to import on both sides. */
export const COLOR_MODES = ['light', 'dark', 'system'] as const
export type ColorMode = (typeof COLOR_MODES)[number]

export const COLOR_MODE_LABELS: Record<ColorMode, string> = { light: 'Light', dark: 'Dark', system: 'System' }

/** The preference from a cookie's value: anything else is "system". */
export function toColorMode(value: unknown): ColorMode {
  return value === 'light' || value === 'dark' ? value : 'system'
}
