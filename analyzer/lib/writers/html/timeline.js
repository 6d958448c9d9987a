// SPDX-License-Identifier: LGPL-2.1
/*
 * timeline.js - the busiest threads' waits over trace time: a lane per
 * thread, a bar per wait coloured by its cause, the global table's worst
 * occurrences marked.  Only each thread's longest waits are in the data
 * (the report's size must not grow with the trace); the grey shade under
 * the bars is how much of each slice of time the thread spent waiting,
 * every wait counted, so what was left out still shows.
 * The wheel zooms about the pointer, a drag pans, the buttons too.
 * The pointer on a wait marks its waker: the moment it was woken, and the
 * waker's lane when the waker is on the timeline.
 */
'use strict';

LT.TL_LANE = 20;		/* pixels per thread */
LT.TL_LABEL = 190;		/* the names' column */
LT.TL_AXIS = 22;

LT.tlLanes = function () {
	/* a lane's waits as absolute offsets from the range's start */
	return LT.data.timeline.lanes.map(function (l) {
		var at = 0;

		return {
			name: LT.name(l[0]), pid: l[1], tid: l[2], kt: l[3],
			count: l[4], total: l[5], slices: l[6],
			spans: l[7].map(function (s) {
				at += s[0];
				/* the waker: a tid and its name, or -1 - its kind's name */
				return { start: at, len: s[1], cause: s[2], worst: s[3],
					 wtid: s.length > 4 && s[4] >= 0 ? s[4] : -1,
					 wname: s.length > 5 ? LT.name(s[5]) : '',
					 wkind: s.length < 5 ? '' : s[4] >= 0 ? 'task' :
						LT.name(-1 - s[4]) };
			})
		};
	});
};

LT.tlDraw = function () {
	var t = LT.tl, box = document.getElementById('tl-chart');
	var W = LT.width(box), plot = W - LT.TL_LABEL - 8;
	var H = LT.TL_AXIS + t.lanes.length * LT.TL_LANE + 6;
	var t0 = t.t0, t1 = t.t1, k = plot / (t1 - t0), svg, axis, nslices, ticks;
	var slice = LT.data.span / LT.data.timeline.slices;

	function x(ns) {
		return LT.TL_LABEL + (ns - t0) * k;
	}

	LT.clear(box);
	svg = LT.svg('svg', { width: W, height: H, class: 'timeline', role: 'img',
			      'aria-label': 'timeline of the busiest threads\' waits' },
		     box);
	LT.svg('clipPath', { id: 'tl-clip' }, svg);
	LT.svg('rect', { x: LT.TL_LABEL, y: 0, width: plot, height: H },
	       svg.lastChild);
	axis = LT.svg('g', { class: 'axis' }, svg);
	ticks = LT.ticks(t0, t1, Math.max(2, Math.floor(plot / 110)));
	ticks.forEach(function (ns) {
		LT.svg('line', { x1: x(ns), x2: x(ns), y1: LT.TL_AXIS - 4, y2: H },
		       axis);
		LT.svg('text', { x: x(ns) + 2, y: LT.TL_AXIS - 8 }, axis)
			.textContent = LT.atTick(ns, ticks.length > 1 ?
						 ticks[1] - ticks[0] : t1 - t0);
	});
	nslices = LT.data.timeline.slices;
	t.lanes.forEach(function (l, li) {
		var y = LT.TL_AXIS + li * LT.TL_LANE, g, body, i, s0, s1;

		g = LT.svg('g', { class: 'lane' }, svg);
		LT.svg('text', { x: 4, y: y + LT.TL_LANE - 6, class: 'lane-name' }, g)
			.textContent = (l.name.length > 22 ? l.name.slice(0, 21) + '..' :
					l.name) + ' ' + l.tid;
		body = LT.svg('g', { 'clip-path': 'url(#tl-clip)' }, g);
		/* how much of each slice it waited: all its waits, kept or not */
		for (i = 0; i < nslices; i++) {
			s0 = t.base + i * slice;
			s1 = s0 + slice;
			if (s1 < t0 || s0 > t1 || !l.slices[i])
				continue;
			LT.svg('rect', { x: x(s0), y: y + 2, width: Math.max(slice * k, 1),
					 height: LT.TL_LANE - 4, class: 'busy',
					 'fill-opacity': Math.min(1, l.slices[i] / slice) * 0.35 },
			       body);
		}
		l.spans.forEach(function (s, si) {
			var xs, w;

			if (s.start + s.len < t0 || s.start > t1)
				return;
			xs = x(Math.max(s.start, t0));
			w = Math.max(x(Math.min(s.start + s.len, t1)) - xs, 1);
			LT.svg('rect', { x: xs.toFixed(2), y: y + 4, width: w.toFixed(2),
					 height: LT.TL_LANE - 8,
					 fill: LT.causeColour(s.cause),
					 class: s.worst ? 'span worst' : 'span',
					 'data-l': li, 'data-s': si }, body);
			if (s.worst)
				LT.svg('path', { d: 'M' + (xs + w / 2 - 3).toFixed(1) + ',' +
					   (y + 0.5) + 'h6l-3,3.5z', class: 'mark' }, body);
		});
	});
	document.getElementById('tl-info').textContent =
		LT.at(t0) + ' .. ' + LT.at(t1) + ' (' + LT.dur(t1 - t0) + ')';
};

/* Who woke wait @s, as the tooltip says it; its lane's index in *lane. */
LT.tlWaker = function (s) {
	var li = s.wtid >= 0 ? LT.tl.lanes.findIndex(function (l) {
		return l.tid === s.wtid;
	}) : -1;

	if (li >= 0)
		return { lane: li, text: LT.tl.lanes[li].name + ' (thread ' + s.wtid + ')' };
	if (s.wtid >= 0)
		return { lane: -1, text: (s.wname ? s.wname + ' (thread ' + s.wtid + ')' :
					 'thread ' + s.wtid) + ', not on the timeline' };
	return { lane: -1, text: s.wkind || 'not known' };
};

/*
 * Wait @s of lane @li marked as woken: a line at its end across the
 * lanes, and the waker's lane outlined with a dot at that moment.  null:
 * the mark taken away.
 */
LT.tlMark = function (li, s) {
	var box = document.getElementById('tl-chart');
	var svg = box.querySelector('svg.timeline'), old = document.getElementById('tl-mark');
	var t = LT.tl, plot, k, x, y, w, g, H;

	if (old)
		old.remove();
	if (!svg || !s)
		return;
	plot = LT.width(box) - LT.TL_LABEL - 8;
	k = plot / (t.t1 - t.t0);
	x = LT.TL_LABEL + (s.start + s.len - t.t0) * k;
	H = LT.TL_AXIS + t.lanes.length * LT.TL_LANE;
	w = LT.tlWaker(s);
	g = LT.svg('g', { id: 'tl-mark', 'data-waker': w.lane }, svg);
	LT.svg('line', { x1: x.toFixed(2), x2: x.toFixed(2), y1: LT.TL_AXIS - 4,
			 y2: H, class: 'wake-at' }, g);
	if (w.lane < 0)
		return;
	y = LT.TL_AXIS + w.lane * LT.TL_LANE;
	LT.svg('rect', { x: 1, y: y + 1, width: LT.TL_LABEL + plot - 2,
			 height: LT.TL_LANE - 2, class: 'waker-lane',
			 'data-tid': s.wtid }, g);
	LT.svg('circle', { cx: x.toFixed(2), cy: y + LT.TL_LANE / 2, r: 4,
			   class: 'waker-dot' }, g);
	LT.svg('line', { x1: x.toFixed(2), x2: x.toFixed(2),
			 y1: LT.TL_AXIS + li * LT.TL_LANE + LT.TL_LANE / 2,
			 y2: y + LT.TL_LANE / 2, class: 'wake-link' }, g);
};

LT.tlZoom = function (factor, at) {
	var t = LT.tl, span = (t.t1 - t.t0) * factor, full = LT.data.span;

	span = Math.min(Math.max(span, 1000), full);
	t.t0 = at - (at - t.t0) * factor;
	t.t0 = Math.min(Math.max(t.t0, 0), full - span);
	t.t1 = t.t0 + span;
	LT.tlDraw();
};

LT.tlPan = function (ns) {
	var t = LT.tl, span = t.t1 - t.t0;

	t.t0 = Math.min(Math.max(t.t0 + ns, 0), LT.data.span - span);
	t.t1 = t.t0 + span;
	LT.tlDraw();
};

LT.tlAt = function (ev) {
	var box = document.getElementById('tl-chart'), r = box.getBoundingClientRect();
	var plot = LT.width(box) - LT.TL_LABEL - 8;

	return LT.tl.t0 + (ev.clientX - r.left - LT.TL_LABEL) / plot *
	       (LT.tl.t1 - LT.tl.t0);
};

LT.initTimeline = function () {
	var tl = LT.data.timeline, box = document.getElementById('tl-chart');
	var note = document.getElementById('tl-note'), drag = null, causes = [];
	var seen = {}, lanes;

	if (!box)
		return;
	if (!tl || !tl.lanes.length) {
		document.getElementById('timeline').classList.add('empty');
		note.textContent = tl ? 'No thread waited (charged) in this range.' :
			'No timeline: a saved or merged report keeps no waits (run ' +
			'latency-analyze --format=html on the trace).';
		return;
	}
	lanes = LT.tlLanes();
	LT.tl = { lanes: lanes, base: tl.start, t0: 0, t1: LT.data.span };
	if (LT.data.view[0] > 0 || LT.data.view[1] < LT.data.span) {
		LT.tl.t0 = LT.data.view[0];
		LT.tl.t1 = LT.data.view[1];
	}
	if (LT.tl.t1 <= LT.tl.t0)
		LT.tl.t1 = LT.tl.t0 + 1000;
	note.textContent = 'The ' + lanes.length + ' thread' +
		(lanes.length === 1 ? '' : 's') + ' with the most charged time ' +
		'(at most ' + tl.threads + '), each wait as a bar: the longest ' +
		tl.waits + ' of each thread and the global table\'s worst occurrences ' +
		'(marked \u25bc) are drawn; the shade is all of its waiting.';
	lanes.forEach(function (l) {
		l.spans.forEach(function (s) {
			if (!seen[s.cause]) {
				seen[s.cause] = true;
				causes.push(s.cause);
			}
		});
	});
	causes.sort(function (a, b) {
		return a - b;
	});
	LT.legend(box, causes);
	LT.tlDraw();
	box.addEventListener('wheel', function (ev) {
		ev.preventDefault();
		LT.tlZoom(ev.deltaY < 0 ? 0.8 : 1.25, LT.tlAt(ev));
	}, { passive: false });
	box.addEventListener('mousedown', function (ev) {
		drag = { x: ev.clientX, moved: false };
		ev.preventDefault();
	});
	window.addEventListener('mousemove', function (ev) {
		var plot;

		if (!drag)
			return;
		plot = LT.width(box) - LT.TL_LABEL - 8;
		if (Math.abs(ev.clientX - drag.x) < 2)
			return;
		LT.tlPan(-(ev.clientX - drag.x) / plot * (LT.tl.t1 - LT.tl.t0));
		drag.x = ev.clientX;
		drag.moved = true;
	});
	window.addEventListener('mouseup', function () {
		drag = null;
	});
	box.addEventListener('dblclick', function (ev) {
		LT.tlZoom(0.5, LT.tlAt(ev));
	});
	box.addEventListener('mousemove', function (ev) {
		var r = ev.target, l, s;

		if (drag || !r.classList || !r.classList.contains('span')) {
			LT.tip(ev, null);
			LT.tlMark(-1, null);
			return;
		}
		l = LT.tl.lanes[Number(r.getAttribute('data-l'))];
		s = l.spans[Number(r.getAttribute('data-s'))];
		LT.tlMark(Number(r.getAttribute('data-l')), s);
		LT.tip(ev, [l.name + ' (thread ' + l.tid + ', process ' + l.pid + ')',
			    LT.causeText(s.cause) + (s.worst ? ' - a worst occurrence' : ''),
			    LT.dur(s.len) + ' from ' + LT.at(s.start) + ' to ' +
			    LT.at(s.start + s.len),
			    'woken by ' + LT.tlWaker(s).text,
			    'its thread: ' + l.count + ' waits, ' + LT.dur(l.total) +
			    ' (' + l.spans.length + ' drawn)']);
	});
	box.addEventListener('mouseleave', function (ev) {
		LT.tip(ev, null);
		LT.tlMark(-1, null);
	});
	document.getElementById('tl-in').addEventListener('click', function () {
		LT.tlZoom(0.5, (LT.tl.t0 + LT.tl.t1) / 2);
	});
	document.getElementById('tl-out').addEventListener('click', function () {
		LT.tlZoom(2, (LT.tl.t0 + LT.tl.t1) / 2);
	});
	document.getElementById('tl-reset').addEventListener('click', function () {
		LT.tl.t0 = 0;
		LT.tl.t1 = LT.data.span;
		LT.tlDraw();
	});
	window.addEventListener('resize', LT.tlDraw);
};
