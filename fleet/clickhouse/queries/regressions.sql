-- SPDX-License-Identifier: GPL-2.0
-- What got worse from one day to another, fleet-wide: the causes whose
-- charged time grew, most first, each day's waits, total and hosts.
-- The days compared are the last two loaded; for two others, put them
-- in place of the two subqueries: toDate('2024-05-01') AS before_day.
WITH
    (SELECT max(day) FROM latencytop.waits
     WHERE day < (SELECT max(day) FROM latencytop.waits)) AS before_day,
    (SELECT max(day) FROM latencytop.waits) AS after_day
SELECT
    reason,
    argument,
    before_day,
    after_day,
    countIf(day = before_day) AS waits_before,
    countIf(day = after_day) AS waits_after,
    sumIf(dur_ns, day = before_day) AS total_ns_before,
    sumIf(dur_ns, day = after_day) AS total_ns_after,
    toInt64(total_ns_after) - toInt64(total_ns_before) AS change_ns,
    uniqExactIf(host, day = before_day) AS hosts_before,
    uniqExactIf(host, day = after_day) AS hosts_after
FROM latencytop.waits
WHERE dropped IS NULL AND kernel_thread = 0
    AND (day = before_day OR day = after_day)
GROUP BY reason, argument
HAVING total_ns_after > total_ns_before
ORDER BY change_ns DESC, reason, argument
LIMIT 20
