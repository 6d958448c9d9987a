-- SPDX-License-Identifier: GPL-2.0
-- Per cause, fleet-wide: the waits, their median, p90, p99 and longest,
-- most charged time first.  Exact and by nearest rank, as the report
-- defines them (the smallest wait with at least that share of the waits
-- at or below it); the report's own come from its histogram, in the
-- same bucket as these (within 1/16).  Every wait of a cause is sorted:
-- over billions of rows, quantilesTDigest(0.5, 0.9, 0.99)(dur_ns) is an
-- estimate that is not.
SELECT
    reason,
    argument,
    waits,
    sorted[toUInt64(ceil(0.50 * waits))] AS p50_ns,
    sorted[toUInt64(ceil(0.90 * waits))] AS p90_ns,
    sorted[toUInt64(ceil(0.99 * waits))] AS p99_ns,
    max_ns
FROM
(
    SELECT
        reason,
        argument,
        count() AS waits,
        sum(dur_ns) AS total_ns,
        max(dur_ns) AS max_ns,
        arraySort(groupArray(dur_ns)) AS sorted
    FROM latencytop.waits
    WHERE dropped IS NULL AND kernel_thread = 0
    GROUP BY reason, argument
)
ORDER BY total_ns DESC, reason, argument
