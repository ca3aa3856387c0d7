// The settings as table rows, in envSchema's order: each variable's default read from the schema itself
// (what it parses an absent value to), so the tables cannot drift from what the gateway does.
import { envSchema, type EnvVariable } from '../config.js'
import { type Setting, SETTINGS } from './settings.js'

export interface SettingRow extends Setting {
  variable: string
  /** The schema's default as the documents show it, or the entry's `unset` text, or '' (nothing). */
  default: string
}

/** What the schema makes of the variable left unset, when that is one plain value. */
export function schemaDefault(variable: EnvVariable): string | undefined {
  // A variable that must be set fails to parse: its data is then undefined, so no default.
  const value: unknown = envSchema.shape[variable].safeParse(undefined).data
  return ['string', 'number', 'boolean'].includes(typeof value) ? `\`${String(value)}\`` : undefined
}

/**
 * Rows for every variable of the schema. A variable with no entry in `settings` (a new one) is a row
 * whose meaning says so, which the docs test then names.
 */
export function settingRows(
  settings: Partial<Record<EnvVariable, Setting>> = SETTINGS,
  variables = Object.keys(envSchema.shape) as EnvVariable[],
): SettingRow[] {
  return variables.map((variable) => {
    const setting = settings[variable] ?? { meaning: '' }
    return { variable, ...setting, default: schemaDefault(variable) ?? setting.unset ?? '' }
  })
}
