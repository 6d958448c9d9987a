#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""test-html-browser.py - the HTML report (--format=html) in a real browser.

Usage: test-html-browser.py LATENCY-ANALYZE MKTRACE HOSTILE.trs TRACE...

Each trace's report is written as HTML and as JSON, with the same
options, and the HTML is loaded in a headless Chromium (cdp.py), which
must show:
- no console error or warning, no exception, no request of any kind
  but the file itself (it must open offline);
- the text report's header and the global table's head, as they are;
- the global, process (and thread) tables with the JSON report's
  numbers, row for row; the process list's totals, and its names
  told apart: "sync(22910)" where another process has the name;
- a flame graph whose root is the global table's charged total (every
  process's with the kernel threads box ticked), which a real click on a
  process zooms to;
- a "waiting for" flame graph whose root is the rows with a waker tree,
  and above the widest cause its wakers and theirs as the JSON has them;
  on a chains recording (tests/data/chains/pipe.dat), the pointer on a
  wait whose waker has a lane marks that lane and names it;
- sorting by a column, the process filter (also by "sync(22910)"),
  the timeline's zoom, the windows' columns (with --window), a
  screenshot that is not blank (its size and its number of colours,
  not its pixels), and a PDF when printed.
HOSTILE.trs (mktrace.py) names tasks, causes and frames with HTML,
script and quotes: they must be shown as text, and nothing of theirs may
become an element or run.

Without Chromium the test says so and is skipped (exit 77).
"""

import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

failures = []
MARKED = []	# the reports whose timeline had a waker to mark
OFFLANE = []	# ... and a waker with no lane of its own

# the only elements the report's markup has: anything else came from a name
ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "header",
                "h1", "h2", "h3", "h4", "span", "nav", "a", "main", "section",
                "pre", "noscript", "p", "label", "input", "button", "div",
                "table", "thead", "tbody", "tr", "th", "td", "details",
                "summary", "script"}

HOSTILE_NAMES = ["<script>alert(", "</script><!--x", "a\"b'c&d<e>f",
                 "<img src=x oner"]


def fail(what):
    failures.append(what)
    print("FAIL " + what, flush=True)


def ok(what):
    print("ok   " + what, flush=True)


def check(cond, what):
    (ok if cond else fail)(what)
    return cond


def shown(s):
    """A name as the page shows it: control characters as '?', as in
    the text report."""
    out = []
    for ch in s:
        c = ord(ch)
        out.append("?" if c < 0x20 or c == 0x7f or 0x80 <= c <= 0x9f else ch)
    return "".join(out)


def cause_text(row):
    arg = row["argument"]
    return shown(row["reason"]) + (" (" + shown(arg) + ")" if arg else "")


class Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.scripts, self.data = set(), [], None
        self._in = None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag == "script":
            self.scripts.append(dict(attrs))
            self._in = dict(attrs).get("type")
            self._buf = []

    def handle_data(self, d):
        if self._in is not None:
            self._buf.append(d)

    def handle_endtag(self, tag):
        if tag == "script" and self._in is not None:
            if self._in == "application/json":
                self.data = "".join(self._buf)
            self._in = None


def static_checks(name, text):
    """What the file says before any browser reads it."""
    p = Tags()
    p.feed(text)
    check(p.tags <= ALLOWED_TAGS, "%s: only the report's own elements (%s)"
          % (name, ", ".join(sorted(p.tags - ALLOWED_TAGS)) or "none else"))
    check(len(p.scripts) == 2 and p.scripts[0].get("type") == "application/json",
          "%s: two script elements, the data and the code" % name)
    check("default-src 'none'" in text, "%s: a policy that forbids requests" % name)
    try:
        data = json.loads(p.data or "")
    except ValueError as e:
        fail("%s: the data element is not JSON: %s" % (name, e))
        return None
    ok("%s: the data is JSON (version %s)" % (name, data.get("version")))
    return data


def run(la, args, out):
    r = subprocess.run([la, "-q"] + args + ["-o", out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stderr.strip()


# the page's tables, read as the user sees them: text and exact values
READ_TABLES = r"""(() => {
  const rows = t => t ? Array.from(t.tBodies[0].rows).map(r =>
      Array.from(r.cells).map((c, i) => i ? c.getAttribute('data-v') : c.textContent)) : [];
  return {
    summary: document.querySelector('#summary pre').textContent,
    head: document.querySelector('#global pre').textContent,
    global: rows(document.querySelector('#global table')),
    list: Array.from(document.querySelectorAll('#proc-list tbody tr')).map(r => ({
      name: r.dataset.name, pid: r.dataset.pid,
      cells: Array.from(r.cells).map(c => c.getAttribute('data-v')),
      text: r.cells[0].querySelector('a').textContent})),
    procs: Array.from(document.querySelectorAll('details.proc')).map(d => ({
      pid: d.dataset.pid, name: d.dataset.name,
      rows: rows(d.querySelector(':scope > table.rows')),
      threads: Array.from(d.querySelectorAll(':scope > table.rows')).slice(1).map(rows)}))
  };
})()"""


def rows_equal(name, got, want):
    bad = []
    if len(got) != len(want):
        return ["%d rows, the JSON has %d" % (len(got), len(want))]
    for i, (g, w) in enumerate(zip(got, want)):
        exp = [cause_text(w), str(w["max_ns"]), str(w["avg_ns"]),
               str(w["p99_ns"]) if w["p99_ns"] is not None else "-1",
               str(w["count"]), str(w["total_ns"])]
        if g[:6] != exp or abs(float(g[6]) - w["percent"]) > 0.0005:
            bad.append("row %d: %r, the JSON's %r %.3f" % (i, g, exp, w["percent"]))
    return bad


def text_parts(la, trace, opts, tmp):
    """The text report's header, and the global table's head lines."""
    out = os.path.join(tmp, "report.txt")
    code, err = run(la, opts + [trace], out)
    with open(out, encoding="utf-8", errors="replace") as f:
        text = f.read()
    header = text.split("\n\n", 1)[0] + "\n"
    m = re.search(r"(?m)^Global latencies.*\n(  .*\n)*", text)
    head = m.group(0) if m else ""
    # a table's head line is not the view's head
    head = "".join(l + "\n" for l in head.splitlines() if not l.startswith("Cause"))
    return header, head


def check_tables(b, name, rep, view, page, text_header, text_head, per_thread):
    check(page["summary"] == text_header.replace("\ufffd", "\ufffd"),
          "%s: the text report's header, as it is" % name)
    if page["summary"] != text_header:
        print("  page: %r\n  text: %r" % (page["summary"][:300], text_header[:300]))
    check(page["head"] == text_head, "%s: the global table's head line(s)" % name)
    bad = rows_equal(name, page["global"], view["global"])
    check(not bad, "%s: the global table's %d rows are the JSON's%s"
          % (name, len(view["global"]), ": " + "; ".join(bad[:3]) if bad else ""))
    procs = view["processes"]
    check(len(page["procs"]) == len(procs),
          "%s: a section per process (%d)" % (name, len(procs)))
    bad = []
    for p, w in zip(page["procs"], procs):
        if p["pid"] != str(w["pid"]) or p["name"] != shown(w["comm"]):
            bad.append("process %s %r, the JSON's %d %r" % (p["pid"], p["name"],
                                                          w["pid"], w["comm"]))
            continue
        bad += ["%s (%d) %s" % (w["comm"], w["pid"], x)
                for x in rows_equal(name, p["rows"], w["reasons"])]
        if per_thread:
            want = [t for t in w["threads"]]
            got = p["threads"]
            nonempty = [t for t in want if t["reasons"]]
            if len(got) != len(nonempty):
                bad.append("%d thread tables, the JSON has %d" % (len(got), len(nonempty)))
            for g, t in zip(got, nonempty):
                bad += ["thread %d %s" % (t["tid"], x)
                        for x in rows_equal(name, g, t["reasons"])]
    check(not bad, "%s: every process's table is the JSON's%s"
          % (name, ": " + "; ".join(bad[:3]) if bad else ""))
    bad = []
    for r, w in zip(page["list"], procs):
        want = [None, str(w["pid"]), str(w["total_ns"]),
                str(max([x["max_ns"] for x in w["reasons"]] or [0])),
                str(sum(x["count"] for x in w["reasons"]))]
        if r["cells"][1:5] != want[1:5] or r["text"] != list_name(w, procs):
            bad.append("%r %r, the JSON's %r" % (r["text"], r["cells"], want))
    check(not bad and len(page["list"]) == len(procs),
          "%s: the process list's totals%s" % (name, ": " + "; ".join(bad[:3]) if bad else ""))
    # processes named alike are told apart by their pids, the others not
    alike = [w for w in procs if list_name(w, procs) != shown(w["comm"])]
    texts = [r["text"] for r in page["list"]]
    if len(set((w["comm"], w["pid"]) for w in procs)) == len(procs):
        check(len(set(texts)) == len(texts),
              "%s: no two links of the process list read the same (%d named alike: %s)"
              % (name, len(alike), ", ".join(list_name(w, procs) for w in alike[:3])))


def list_name(w, procs):
    """A process as the process list names it: "sync(22910)" where
    another process of the report has its name."""
    alike = sum(p["comm"] == w["comm"] for p in procs)
    return shown(w["comm"]) + ("(%d)" % w["pid"] if alike > 1 else "")


def check_flame(b, name, rep, view):
    total = view["total_ns"]
    every = sum(p["total_ns"] for p in view["processes"])
    root = b.eval("Number(document.getElementById('flame-root').getAttribute('data-ns'))")
    want = every if rep["options"]["kernel_threads"] else total
    check(root == want, "%s: the flame graph's root is the charged total (%s ns, %s)"
          % (name, root, want))
    # ticked, the kernel threads' time joins it
    # the box turns the kernel threads' time on (off, with -k)
    users = sum(p["total_ns"] for p in view["processes"] if not p["kernel_thread"])
    b.eval("document.getElementById('flame-kt').click()")
    root_kt = b.eval("Number(document.getElementById('flame-root').getAttribute('data-ns'))")
    b.eval("document.getElementById('flame-kt').click()")
    want = users if rep["options"]["kernel_threads"] else every
    check(root_kt == want, "%s: the kernel threads box makes the root %s ns (%s)"
          % (name, root_kt, want))
    if not root:
        return
    # a real click, where the widest process is drawn
    box = b.eval("""(() => {
      const g = document.querySelector('#flame-chart g.k-proc');
      g.scrollIntoView({block: 'center'});
      const r = g.querySelector('rect').getBoundingClientRect();
      return [r.x + r.width / 2, r.y + r.height / 2, g.getAttribute('data-ns')];
    })()""")
    b.click(box[0], box[1])
    z = b.eval("""(() => {
      const svg = document.querySelector('#flame-chart svg');
      const g = document.querySelector('#flame-chart g.fn:not(.dim)');
      return [LT.flame.zoom.kind, g.getAttribute('data-ns'),
              Number(g.querySelector('rect').getAttribute('width')),
              Number(svg.getAttribute('width')),
              document.getElementById('flame-info').textContent];
    })()""")
    check(z[0] == "proc" and z[1] == box[2] and z[2] >= z[3] - 1 and
          z[4].startswith("zoomed to"),
          "%s: a click on a process zooms to it (%s)" % (name, z[4][:60]))
    b.eval("document.getElementById('flame-reset').click()")
    # the search colours what it matches
    n = b.eval("""(() => {
      const s = document.getElementById('flame-search');
      s.value = LT.flame.root.list[0].list[0].name.slice(0, 6);
      s.dispatchEvent(new Event('input'));
      const n = document.querySelectorAll('#flame-chart rect[fill="#e040fb"]').length;
      s.value = ''; s.dispatchEvent(new Event('input'));
      return n;
    })()""")
    check(n > 0, "%s: the search highlights %d frames" % (name, n))


def chain_label(n, ran):
    """A waited_for or ran_instead node as the page names it."""
    tid = " (%d)" % n["tid"] if n["tid"] is not None else ""
    if ran or "what" not in n:
        return n["comm"] + tid
    if n["comm"] == n["what"]:
        return n["what"]
    return "%s%s: %s" % (n["comm"], tid, n["what"])


def chain_nodes(nodes):
    """A list of nodes as the report holds it: an "other" unfolded to its rest."""
    out = []
    for n in nodes:
        out += n["rest"] if "rest" in n else [n]
    return out


def check_wfor(b, name, rep, view):
    """The "waiting for" flame graph: the rows with a waker tree, their
    nodes above them, each as the JSON report has it."""
    kt = rep["options"]["kernel_threads"]
    least = sum(p["total_ns"] for p in view["processes"]) // 5000
    rows = [(p, r) for p in view["processes"] for r in p["reasons"]
            if (r.get("waited_for") or r.get("ran_instead")) and r["total_ns"] >= least
            and r["total_ns"]]
    want = sum(r["total_ns"] for p, r in rows if kt or not p["kernel_thread"])
    want_kt = sum(r["total_ns"] for p, r in rows if not kt or not p["kernel_thread"])
    got = b.eval("""(() => {
      const r = () => Number(document.getElementById('wfor-root').getAttribute('data-ns'));
      const a = r(); document.getElementById('wfor-kt').click();
      const b = r(); document.getElementById('wfor-kt').click();
      return [a, b];
    })()""")
    check(got == [want, want_kt], "%s: the waiting-for graph's root is the rows with "
          "wakers (%s ns; %s with the box; want %s, %s)" % (name, got[0], got[1], want, want_kt))
    if not want:
        return
    # the widest cause of the widest process: its nodes, level by level
    top = b.eval("""(() => {
      const p = LT.wfor.root.list[0], c = p.list[0];
      const tree = n => n.list.map(k => [k.name, k.kind, k.value, tree(k)]);
      return [p.name, c.cause, c.value, tree(c)];
    })()""")
    proc = next((p for p, r in rows if "%s (%d)" % (p["comm"], p["pid"]) == top[0]), None)
    row = None
    for p, r in rows:
        if p is proc and r["total_ns"] == top[2] and \
           b.eval("LT.causeText(%d)" % top[1]) == ("%s (%s)" % (r["reason"], r["argument"])
                                                   if r["argument"] else r["reason"]):
            row = r
    check(row is not None, "%s: the widest cause drawn (%s) is a row of %s" % (name, top[2], top[0]))
    if row is None:
        return
    ran = not row.get("waited_for")

    def want_tree(nodes):
        out = []
        for n in chain_nodes(nodes):
            if n["ns"] < least or not n["ns"]:
                continue
            out.append([chain_label(n, ran), n["ns"],
                        want_tree(n.get("waited_for", []))])
        return sorted(out, key=lambda x: (-x[1], x[0]))

    def drawn(nodes):
        return [[n[0], n[2], drawn(n[3])] for n in nodes]

    w = want_tree(row["ran_instead"] if ran else row["waited_for"])
    check(drawn(top[3]) == w, "%s: above %s, its %d wakers and theirs as the report has "
          "them" % (name, top[0], len(w)))
    if drawn(top[3]) != w:
        print("       got  %s\n       want %s" % (drawn(top[3])[:3], w[:3]))
    kinds = b.eval("Array.from(new Set(Array.from(document.querySelectorAll("
                   "'#wfor-chart g.fn')).map(g => g.getAttribute('class').split(' ')[1])))")
    check("k-cause" in kinds and len(kinds) >= 4, "%s: the graph draws causes and wakers (%s)"
          % (name, ", ".join(kinds)))


def hover_span(b, li, si):
    """The pointer over lane @li's wait @si, then away: [the mark's
    data-waker, its waker lane's tid and y, the tooltip's text, whether a
    mark is left after], or None when that wait is not drawn (zoomed)."""
    return b.eval("""((li, si) => {
      const r = document.querySelector(`#tl-chart rect.span[data-l="${li}"][data-s="${si}"]`);
      if (!r) return null;
      r.scrollIntoView({block: 'center'});
      const b = r.getBoundingClientRect();
      r.dispatchEvent(new MouseEvent('mousemove', {bubbles: true,
        clientX: b.x + b.width / 2, clientY: b.y + b.height / 2}));
      const m = document.getElementById('tl-mark');
      const w = m && m.querySelector('rect.waker-lane');
      const res = [m ? Number(m.getAttribute('data-waker')) : null,
                   w ? Number(w.getAttribute('data-tid')) : null,
                   w ? w.getBoundingClientRect().y : null,
                   document.getElementById('lt-tip').textContent];
      r.dispatchEvent(new MouseEvent('mouseleave', {bubbles: false}));
      document.getElementById('tl-chart').dispatchEvent(new MouseEvent('mouseleave'));
      return res.concat([!!document.getElementById('tl-mark')]);
    })(%d, %d)""" % (li, si))


def check_waker_mark(b, name, data):
    """The pointer on a wait whose waker has a lane: that lane marked."""
    lanes = data["timeline"]["lanes"] if data.get("timeline") else []
    tids = {l[2]: i for i, l in enumerate(lanes)}
    at = next(((li, si, s[4]) for li, l in enumerate(lanes) for si, s in enumerate(l[7])
               if len(s) > 4 and s[4] in tids and s[4] != l[2]), None)
    if at is None:
        return False
    li, si, wtid = at
    got = hover_span(b, li, si)
    if not got:
        # the wait is out of the drawn range (zoomed): not drawn, not a failure
        check(False, "%s: lane %d's wait %d is drawn" % (name, li, si))
        return True
    lane_y = b.eval("""((i) => {
      const t = document.querySelectorAll('#tl-chart g.lane text.lane-name')[i];
      return t.getBoundingClientRect().y; })(%d)""" % tids[wtid])
    wname = data["names"][lanes[tids[wtid]][0]]
    check(got[0] == tids[wtid] and got[1] == wtid and abs(got[2] - lane_y) < 20,
          "%s: the pointer on %s's wait marks its waker's lane, %s (%d)"
          % (name, data["names"][lanes[li][0]], wname, wtid))
    check("woken by %s (thread %d)" % (wname, wtid) in got[3],
          "%s: the tooltip says who woke it (%s)" % (name, got[3][:160]))
    check(not got[4], "%s: the mark goes with the pointer" % name)
    return True


def check_waker_offlane(b, name, data):
    """The pointer on a wait whose waker has no lane: the tooltip names it."""
    lanes = data["timeline"]["lanes"] if data.get("timeline") else []
    tids = {l[2] for l in lanes}
    at = next(((li, si, s[4], data["names"][s[5]]) for li, l in enumerate(lanes)
               for si, s in enumerate(l[7]) if len(s) > 5 and s[4] >= 0 and s[4] not in tids),
              None)
    if at is None:
        return False
    li, si, wtid, wname = at
    got = hover_span(b, li, si)
    if not got:
        check(False, "%s: lane %d's wait %d is drawn" % (name, li, si))
        return True
    want = "woken by %s (thread %d), not on the timeline" % (wname, wtid)
    check(got[0] == -1 and want in got[3],
          "%s: a waker without a lane is named in the tooltip (%r in %r)"
          % (name, want, got[3][:160]))
    return True


def check_sort_filter(b, name, view):
    if len(view["global"]) > 1:
        got = b.eval("""(() => {
          const t = document.querySelector('#global table');
          const th = t.tHead.rows[0].cells[5];
          const col = () => Array.from(t.tBodies[0].rows).map(r => Number(r.cells[5].dataset.v));
          th.click(); const a = col(); th.click(); const b = col();
          return [a, b];
        })()""")
        check(got[0] == sorted(got[0], reverse=True) and got[1] == sorted(got[1]),
              "%s: the global table sorts by total, both ways" % name)
    if len(view["processes"]) > 1:
        first = view["processes"][0]
        f = shown(first["comm"])[:3].lower() or str(first["pid"])
        got = b.eval("""((f) => {
          const i = document.getElementById('filter');
          i.value = f; i.dispatchEvent(new Event('input'));
          const vis = Array.from(document.querySelectorAll('details.proc:not([hidden])'))
            .map(d => d.dataset.name.toLowerCase().includes(f) || d.dataset.pid === f);
          const all = document.querySelectorAll('details.proc').length;
          i.value = ''; i.dispatchEvent(new Event('input'));
          return [vis.length, vis.every(x => x), all,
                  document.querySelectorAll('details.proc:not([hidden])').length];
        })(%s)""" % json.dumps(f))
        check(got[0] >= 1 and got[1] and got[3] == got[2],
              "%s: the filter %r shows %d of %d processes, then all again"
              % (name, f, got[0], got[2]))
    # a name as the list writes it, "sync(22910)": that process alone
    alike = [w for w in view["processes"] if list_name(w, view["processes"]) != shown(w["comm"])]
    if alike:
        f = list_name(alike[-1], view["processes"]).lower()
        got = b.eval("""((f) => {
          const i = document.getElementById('filter');
          i.value = f; i.dispatchEvent(new Event('input'));
          const vis = Array.from(document.querySelectorAll('#proc-list tbody tr:not([hidden])'))
            .map(r => r.dataset.pid);
          const count = document.getElementById('filter-count').textContent;
          i.value = ''; i.dispatchEvent(new Event('input'));
          return [vis, count];
        })(%s)""" % json.dumps(f))
        want = [w["pid"] for w in view["processes"] if w["pid"] == alike[-1]["pid"]]
        check(got[0] == [str(p) for p in want] and got[1].startswith("%d of " % len(want)),
              "%s: the filter %r shows that process (%s)" % (name, f, got[1]))


def check_labels(b, name, sel, what):
    """An axis's labels, left to right, each 4 px or more clear of the next."""
    boxes = b.eval("""Array.from(document.querySelectorAll('%s')).map(e => {
      const r = e.getBoundingClientRect(); return [r.left, r.right]; })""" % sel)
    clash = [(a, c) for a, c in zip(boxes, boxes[1:]) if a[1] + 4 > c[0]]
    check(boxes and not clash, "%s: %s's %d labels do not overlap%s"
          % (name, what, len(boxes), " (%d do)" % len(clash) if clash else ""))


def check_timeline(b, name, rep, data):
    tl = data["timeline"]
    if rep.get("saved_input"):
        check(tl is None, "%s: no timeline from a saved report, and it says so" % name)
        return
    threads = sorted(((t["total_ns"], p["pid"], t["tid"]) for p in rep["processes"]
                      if not p["kernel_thread"] or rep["options"]["kernel_threads"]
                      for t in p["threads"] if t["total_ns"]), key=lambda x: (-x[0], x[1], x[2]))
    want = [(pid, tid) for _, pid, tid in threads[:tl["threads"]]]
    got = [(l[1], l[2]) for l in tl["lanes"]]
    check(got == want, "%s: the timeline's %d threads are the busiest" % (name, len(got)))
    totals = {(p["pid"], t["tid"]): t["total_ns"] for p in rep["processes"] for t in p["threads"]}
    check(all(l[5] == totals.get((l[1], l[2])) and sum(l[6]) == l[5] for l in tl["lanes"]),
          "%s: each lane's total and slices are its thread's charged total" % name)
    if not got:
        return
    n = b.eval("document.querySelectorAll('#tl-chart rect.span').length")
    check(n > 0, "%s: %d waits drawn on the timeline" % (name, n))
    check_labels(b, name, "#tl-chart .axis text", "the timeline's time axis")
    z = b.eval("""(() => {
      const a = LT.tl.t1 - LT.tl.t0;
      document.getElementById('tl-in').click();
      const b = LT.tl.t1 - LT.tl.t0;
      document.getElementById('tl-reset').click();
      return [a, b];
    })()""")
    check(abs(z[1] * 2 - z[0]) <= 2, "%s: the timeline zooms in (%s ns, then %s)"
          % (name, z[0], z[1]))


def check_windows(b, name, rep, data):
    w = data["windows"]
    if not rep["windows"]:
        check(w is None, "%s: no windows, no windows chart" % name)
        return
    per = w["per"]
    check(len(w["cols"]) == -(-len(rep["windows"]) // per) and len(w["cols"]) <= 500,
          "%s: %d windows in %d columns" % (name, len(rep["windows"]), len(w["cols"])))
    check(sum(c[2] for c in w["cols"]) == sum(x["total_ns"] for x in rep["windows"]),
          "%s: the columns add up to the windows' charged time" % name)
    got = b.eval("""(() => {
      const g = document.querySelectorAll('#win-chart g.col');
      g[g.length - 1].dispatchEvent(new MouseEvent('click', {bubbles: true}));
      return [g.length, document.querySelector('#win-table h3').textContent];
    })()""")
    check(got[0] == len(w["cols"]) and got[1].startswith("Window"),
          "%s: a click on the last column shows its table (%s)" % (name, got[1][:40]))


def check_screenshot(b, name):
    b.eval("window.scrollTo(0, 0)")
    png = b.screenshot({"x": 0, "y": 0, "width": 1280, "height": 1400, "scale": 0.5})
    w, h, colours, ink = cdp.png_colours(png)
    check(w == 640 and h == 700 and colours >= 16 and ink >= 0.05,
          "%s: a screenshot of %dx%d, %d bytes, %d colours, %.0f%% not background"
          % (name, w, h, len(png), colours, ink * 100))


def check_hostile(b, name, page):
    names = {p["text"] for p in page["list"]}
    check(set(HOSTILE_NAMES) <= names,
          "%s: the hostile names are shown as text: %s" % (name, sorted(names)))
    got = b.eval("""[document.querySelectorAll('script').length,
      document.querySelectorAll('img, b, iframe, object, embed, link').length,
      document.querySelector('#summary pre').textContent.indexOf('<b>x86_64</b>') >= 0,
      Array.from(document.querySelectorAll('#flame-chart text'))
        .some(t => t.textContent.indexOf('</script>') >= 0)]""")
    check(got[0] == 2 and got[1] == 0,
          "%s: no element made of a name (%d scripts, %d others)" % (name, got[0], got[1]))
    check(got[2] and got[3], "%s: HTML in the uname and in frames is text" % name)


def check_case(b, la, tmp, name, trace, opts, saved=False):
    html_path = os.path.join(tmp, "report.html")
    json_path = os.path.join(tmp, "report.json")
    code, err = run(la, ["--format=json"] + opts + [trace], json_path)
    if code != 0:
        print("skip %s: not analysable (%s)" % (name, err.splitlines()[-1][:100]))
        return False
    code, err = run(la, ["--format=html"] + opts + [trace], html_path)
    if not check(code == 0, "%s: --format=html, exit status %d %s" % (name, code, err[:200])):
        return True
    with open(json_path) as f:
        rep = json.load(f)
    rep["saved_input"] = saved
    with open(html_path, encoding="utf-8") as f:
        text = f.read()
    print("     %s: %d bytes" % (name, len(text.encode())))
    data = static_checks(name, text)
    if data is None:
        return True
    url = "file://" + html_path
    b.load(url)
    probs = b.problems(url)
    check(not probs, "%s: no console error, no request%s" % (name, ": " + "; ".join(probs[:5]) if probs else ""))
    page = b.eval(READ_TABLES)
    header, _ = text_parts(la, trace, opts, tmp)
    # the page's tables are the whole range's: with --window, text has
    # them only without it
    _, head = text_parts(la, trace, [o for i, o in enumerate(opts) if o != "-w" and
                                     (i == 0 or opts[i - 1] != "-w")], tmp)
    check_tables(b, name, rep, rep, page, header, head, "--per-thread" in opts)
    check_flame(b, name, rep, rep)
    check_wfor(b, name, rep, rep)
    check_sort_filter(b, name, rep)
    check_timeline(b, name, rep, data)
    if not rep.get("saved_input"):
        MARKED.append(name) if check_waker_mark(b, name, data) else None
        OFFLANE.append(name) if check_waker_offlane(b, name, data) else None
    check_windows(b, name, rep, data)
    if "hostile" in name:
        check_hostile(b, name, page)
    probs = b.problems(url)
    check(not probs, "%s: still no error after the clicks%s" % (name, ": " + "; ".join(probs[:5]) if probs else ""))
    return True


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    la, mktrace, hostile_trs = sys.argv[1:4]
    traces = sys.argv[4:]
    exe = cdp.find_chromium()
    if not exe:
        print("SKIPPED: chromium not installed (apt-get install chromium)")
        return 77
    tmp = tempfile.mkdtemp(prefix="lt-html-")
    hostile = os.path.join(tmp, "hostile.dat")
    subprocess.run([sys.executable, mktrace, hostile_trs, "-o", hostile], check=True)
    b = cdp.Browser(exe)
    checked = 0
    try:
        cases = [("hostile", hostile, [])]
        cases += [(("chains-" if "/chains/" in t else "") + os.path.basename(t), t, [])
                  for t in traces]
        first = next((t for t in traces if t.endswith("local-golden.dat")), traces[0])
        cases += [("windows-" + os.path.basename(first), first, ["-w", "50ms"]),
                  ("kt-threads-" + os.path.basename(first), first, ["-k", "--per-thread", "-s", "total"])]
        for name, trace, opts in cases:
            checked += check_case(b, la, tmp, name, trace, opts)
        # a saved report: the same tables, no timeline, and no error
        saved = os.path.join(tmp, "saved.json")
        run(la, ["--format=json", first], saved)
        checked += check_case(b, la, tmp, "saved-json", saved, [], saved=True)
        # screenshots and print of a few (each takes a second)
        for name, trace, opts in cases[:3]:
            if run(la, ["--format=html"] + opts + [trace], os.path.join(tmp, "s.html"))[0]:
                continue
            b.load("file://" + os.path.join(tmp, "s.html"))
            check_screenshot(b, name)
        pdf = b.print_pdf()
        check(pdf[:5] == b"%PDF-" and len(pdf) > 10000,
              "printed: a PDF of %d bytes" % len(pdf))
    finally:
        b.close()
    check(checked >= 3, "%d reports checked in the browser" % checked)
    check(any(m.startswith("chains-") for m in MARKED),
          "a waker marked on the timeline of a chains recording (%s)" % ", ".join(MARKED))
    check(OFFLANE, "a waker without a lane named on some timeline (%s)" % ", ".join(OFFLANE))
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
