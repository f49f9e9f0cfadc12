/** The dashboard's "Is data arriving?" part, as its loader sends it (decision 101). */
export type OrgArrival = {
  /** Rows ingested per minute over the last hour; each value is the minute ending at its point. */
  minutes: number[]
  /** Rows ingested per hour over the last day. */
  hours: number[]
  /** The end of the first minute's and the first hour's interval (ms, UTC). */
  minuteStart: number
  hourStart: number
  lastHour: number
  lastDay: number
  /** The tables that took the most rows in the last hour (then the day), at most five. */
  busiest: { table: string; lastHour: number; lastDay: number; href: string }[]
  /** How many tables took rows in the last day (as the counter names them). */
  tablesWithRows: number
  error: string | null
}
