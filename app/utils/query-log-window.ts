/** How far back Insights and the dashboard's query figures look in the cluster's query log, in minutes. */
export const QUERY_LOG_WINDOW_MINUTES = 60
