-- SPDX-License-Identifier: GPL-2.0
-- Each host's five causes with the most charged time, over the traces
-- loaded of it: count, total, longest.  The global table's rows, as
-- latency-analyze merge of that host's traces has them (kernel threads
-- left out, as without -k; dropped waits are not charged).
SELECT
    host,
    reason,
    argument,
    count() AS waits,
    sum(dur_ns) AS total_ns,
    max(dur_ns) AS max_ns
FROM latencytop.waits
WHERE dropped IS NULL AND kernel_thread = 0
GROUP BY host, reason, argument
ORDER BY host, total_ns DESC, reason, argument
LIMIT 5 BY host
