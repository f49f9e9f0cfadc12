/** The timezone preference (spec section 1), safe to import on both sides. */
export type Timezone = 'Local' | 'UTC'
