// SPDX-License-Identifier: LGPL-2.1
/*
 * windows.js - with --window, each window's charged time by cause as a
 * stacked bar, LatencyTOP's 30-second views side by side; a click on a
 * bar shows that window's global table.  Past LT_HTML_COLUMNS windows,
 * neighbours share a bar (the data says how many: "per").
 */
'use strict';

LT.WIN_H = 220;
LT.WIN_LEFT = 70;

LT.winTable = function (ci) {
	var w = LT.data.windows, col = w.cols[ci], box = document.getElementById('win-table');
	var table, body;

	LT.clear(box);
	LT.el('h3', {}, (w.per > 1 ? 'Windows ' + ci * w.per + '-' +
			 (ci * w.per + w.per - 1) : 'Window ' + ci) + ': ' +
	      LT.at(col[0]) + ' .. ' + LT.at(col[1]) + ', ' + LT.dur(col[2]) +
	      ' charged', box);
	if (!col[3].length) {
		LT.el('p', {}, '(no latencies in this range)', box);
		return;
	}
	table = LT.el('table', { class: 'rows' }, null, box);
	body = LT.el('tr', {}, null, LT.el('thead', {}, null, table));
	['Cause', 'Maximum', 'Count', 'Total', 'Percent'].forEach(function (h) {
		LT.el('th', {}, h, body);
	});
	body = LT.el('tbody', {}, null, table);
	col[3].forEach(function (c) {
		var tr = LT.el('tr', {}, null, body);

		LT.el('td', {}, LT.causeText(c[0]), tr)
			.prepend(LT.el('span', { class: 'swatch',
						 style: 'background:' + LT.causeColour(c[0]) }));
		LT.el('td', { 'data-v': c[3] }, LT.dur(c[3]), tr);
		LT.el('td', { 'data-v': c[2] }, String(c[2]), tr);
		LT.el('td', { 'data-v': c[1] }, LT.dur(c[1]), tr);
		LT.el('td', {}, LT.pct(c[1], col[2]), tr);
	});
};

LT.winDraw = function () {
	var w = LT.data.windows, box = document.getElementById('win-chart');
	var W = LT.width(box), n = w.cols.length, top = 0, svg, bw, y, axis;
	var plot = W - LT.WIN_LEFT - 10, H = LT.WIN_H;

	w.cols.forEach(function (c) {
		top = Math.max(top, c[2]);
	});
	LT.clear(box);
	svg = LT.svg('svg', { width: W, height: H + 24, class: 'windows', role: 'img',
			      'aria-label': 'charged time per window, by cause' }, box);
	bw = plot / n;
	y = function (ns) {
		return 6 + H - 6 - (top ? ns / top * (H - 12) : 0);
	};
	axis = LT.svg('g', { class: 'axis' }, svg);
	LT.ticks(0, top, 4).forEach(function (ns) {
		LT.svg('line', { x1: LT.WIN_LEFT - 4, x2: W - 10, y1: y(ns), y2: y(ns) },
		       axis);
		LT.svg('text', { x: LT.WIN_LEFT - 6, y: y(ns) + 4, 'text-anchor': 'end' },
		       axis).textContent = LT.dur(ns);
	});
	w.cols.forEach(function (c, ci) {
		var g = LT.svg('g', { class: 'col' + (ci === LT.winSel ? ' sel' : ''),
				      'data-c': ci }, svg), at = 0;
		var x = LT.WIN_LEFT + ci * bw;

		LT.svg('rect', { x: x, y: 0, width: bw, height: H, class: 'hit' }, g);
		c[3].forEach(function (cc) {
			var y0 = y(at), y1 = y(at + cc[1]);

			LT.svg('rect', { x: x + Math.min(1, bw * 0.1), y: y1,
					 width: Math.max(bw - Math.min(2, bw * 0.2), 0.5),
					 height: Math.max(y0 - y1, 0),
					 fill: LT.causeColour(cc[0]) }, g);
			at += cc[1];
		});
	});
	LT.ticks(0, n, Math.max(2, Math.floor(plot / 90))).forEach(function (i) {
		if (i >= n || i !== Math.floor(i))
			return;
		LT.svg('text', { x: LT.WIN_LEFT + (i + 0.5) * bw, y: H + 16,
				 'text-anchor': 'middle' }, axis)
			.textContent = LT.atTick(w.cols[i][0], w.size * w.per);
	});
};

LT.initWindows = function () {
	var w = LT.data.windows, box = document.getElementById('win-chart');
	var seen = {}, causes = [];

	if (!w || !box)
		return;
	/* the window the page is of (latency-view's), else the first */
	LT.winSel = 0;
	w.cols.forEach(function (c, ci) {
		if (LT.data.view[0] > 0 && c[0] <= LT.data.view[0] && LT.data.view[0] < c[1])
			LT.winSel = ci;
	});
	w.cols.forEach(function (c) {
		c[3].forEach(function (cc) {
			if (!seen[cc[0]]) {
				seen[cc[0]] = true;
				causes.push(cc[0]);
			}
		});
	});
	causes.sort(function (a, b) {
		return (a < 0) - (b < 0) || a - b;
	});
	LT.legend(box, causes);
	LT.winDraw();
	LT.winTable(LT.winSel);
	box.addEventListener('click', function (ev) {
		var g = ev.target.closest ? ev.target.closest('g.col') : null;

		if (!g)
			return;
		LT.winSel = Number(g.getAttribute('data-c'));
		LT.winDraw();
		LT.winTable(LT.winSel);
	});
	box.addEventListener('mousemove', function (ev) {
		var g = ev.target.closest ? ev.target.closest('g.col') : null, col;

		if (!g) {
			LT.tip(ev, null);
			return;
		}
		col = w.cols[Number(g.getAttribute('data-c'))];
		LT.tip(ev, [LT.at(col[0]) + ' .. ' + LT.at(col[1]) + ': ' +
			    LT.dur(col[2])].concat(col[3].slice(0, 8).map(function (cc) {
				    return LT.causeText(cc[0]) + ': ' + LT.dur(cc[1]);
			    })));
	});
	box.addEventListener('mouseleave', function (ev) {
		LT.tip(ev, null);
	});
	window.addEventListener('resize', LT.winDraw);
};
