-- SPDX-License-Identifier: GPL-2.0
-- Causes per kernel release: on how many hosts, how many waits, their
-- total and the longest, most charged time first within a release.
SELECT
    kernel,
    reason,
    argument,
    uniqExact(host) AS hosts,
    count() AS waits,
    sum(dur_ns) AS total_ns,
    max(dur_ns) AS max_ns
FROM latencytop.waits
WHERE dropped IS NULL AND kernel_thread = 0
GROUP BY kernel, reason, argument
ORDER BY kernel, total_ns DESC, reason, argument
